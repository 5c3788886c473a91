//! The traces' answers as Markdown-like text, one block per trace, the same for the CLI and
//! MCP: a heading line with the id, status and subject, the four steps, then only the
//! fields a trace has.

use std::fmt::Write;

use super::{
    ContextTrace, EvidenceCitation, RecallAnswer, RecalledTraceItem, Recheck, RecordTraceAnswer,
};

impl ContextTrace {
    /// One line: when, status, subject, outcome, and the artifact and id tying it.
    pub fn line(&self) -> String {
        format!(
            "{} [{}] {}: {}  ({}, {})",
            self.observed_at, self.status, self.subject, self.outcome, self.artifact, self.id
        )
    }
}

impl RecordTraceAnswer {
    pub fn text(&self) -> String {
        let mut out = String::new();
        let verb = match (self.replayed, self.dry_run) {
            (true, _) => "already recorded",
            (false, true) => "would record",
            (false, false) => "recorded",
        };
        let count = match self.traces.len() {
            1 => "1 trace".to_string(),
            count => format!("{count} traces"),
        };
        let _ = write!(out, "{verb} {count}");
        match (&self.commit, &self.branch) {
            (Some(commit), Some(branch)) => {
                let _ = writeln!(out, " in commit {commit} on branch {branch}");
            }
            (Some(commit), None) => {
                let _ = writeln!(out, " in commit {commit} on a detached HEAD");
            }
            (None, _) => out.push('\n'),
        }
        for trace in &self.traces {
            let _ = writeln!(out, "  {}  {}  ({})", trace.id, trace.file, trace.subject);
        }
        out
    }
}

impl RecallAnswer {
    /// The whole answer: the heading, each trace, what was left out or unreadable.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n", self.heading());
        for trace in &self.traces {
            out.push('\n');
            out.push_str(&trace.text());
        }
        for line in self.closing_lines() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// `recall "words" and anchors a, b: 3 traces, complete`.
    pub fn heading(&self) -> String {
        let mut asked = Vec::new();
        if let Some(query) = &self.query {
            asked.push(format!("{query:?}"));
        }
        if !self.anchors.is_empty() {
            asked.push(format!("anchors {}", self.anchors.join(", ")));
        }
        let count = match self.traces.len() {
            1 => "1 trace".to_string(),
            count => format!("{count} traces"),
        };
        format!("recall {}: {count}, {}", asked.join(" and "), self.completeness)
    }

    /// What the limits left out, and the trace files that could not be read.
    pub fn closing_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.left_out > 0 {
            lines.push(format!(
                "left out: {} traces (the limits); read next: {}",
                self.left_out,
                self.read_next.join(", ")
            ));
        }
        lines.extend(self.unreadable.iter().map(|unreadable| format!("unreadable: {unreadable}")));
        lines
    }
}

impl RecalledTraceItem {
    /// One trace as a block: `## id [status] subject`, how it was found, its steps, then
    /// only the fields it has.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let trace = self;
        let _ = writeln!(
            out,
            "## {} [{}] {}\n  {} observed {} ({}); {}",
            trace.id,
            trace.status,
            trace.subject,
            trace.finding_type,
            trace.observed_at,
            trace.reason,
            trace.file
        );
        for (name, step) in [
            ("situation", &trace.situation),
            ("rationale", &trace.rationale),
            ("action", &trace.action),
            ("outcome", &trace.outcome),
        ] {
            let _ = writeln!(out, "  {name}: {step}");
        }
        let lists = [
            ("artifacts", &trace.artifacts),
            ("evidence", &trace.evidence),
            ("supersedes", &trace.supersedes),
            ("superseded by", &trace.superseded_by),
            ("resolves", &trace.resolves),
            ("resolved by", &trace.resolved_by),
            ("depends on", &trace.depends_on),
        ];
        for (name, values) in lists.into_iter().filter(|(_, values)| !values.is_empty()) {
            let _ = writeln!(out, "  {name}: {}", values.join("; "));
        }
        for citation in &trace.evidence_refs {
            let _ = writeln!(out, "  cites {}", citation_text(citation));
        }
        match &trace.recheck {
            Recheck::Fine => {}
            Recheck::NeedsRecheck { path } => {
                let _ = writeln!(out, "  needs recheck: {}", path.join(" → "));
            }
            Recheck::Unknown { reason } => {
                let _ = writeln!(out, "  recheck unknown: {reason}");
            }
        }
        let ids =
            [("run", &trace.run_id), ("agent", &trace.agent_id), ("subagent", &trace.subagent_id)];
        let ids: Vec<String> = ids
            .iter()
            .filter_map(|(name, id)| id.as_ref().map(|id| format!("{name} {id}")))
            .collect();
        if !ids.is_empty() {
            let _ = writeln!(out, "  {}", ids.join(", "));
        }
        out
    }
}

fn citation_text(citation: &EvidenceCitation) -> String {
    let revision =
        citation.revision.as_ref().map(|revision| format!(" @{revision}")).unwrap_or_default();
    let at_head = match citation.exists_at_head {
        Some(true) => " (the path exists at HEAD)",
        Some(false) => " (the path is not at HEAD)",
        None => "",
    };
    format!(
        "{} {}{revision}, observed {}: {}{at_head}",
        citation.source_id, citation.locator, citation.observed_at, citation.summary
    )
}
