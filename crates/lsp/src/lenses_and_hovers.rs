//! Code lenses (`N call sites · blast M · K tests` over the definitions `lens_settings`
//! picks), hovers (the counts,
//! why they are lower bounds, the memory's tip, the top owner) and references (the call
//! and import sites of the symbol under the cursor).

use crate::editor_messages::{
    code_lens_address, resolved_code_lens, show_message, unresolved_code_lens, EditorError,
    EditorResult,
};
use lsp_types::{
    CodeLens, Hover, HoverContents, Location, MarkupContent, MarkupKind, MessageType,
    ReferenceParams, TextDocumentPositionParams, Uri,
};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::{Answer, BlastAnswer, NeighboursAnswer};
use tether_protocol::{PageRequest, Request, Subject, WalkParams};

use crate::documents::{range_of_name, uri_of_path};
use crate::editor_answers::{blast_summary, hover_markdown, lens_title, short_name, HoverFacts};
use crate::lens_settings::is_protocol_method;
use crate::session::{editor_error, Session};
use crate::symbol_at::unexpected;

/// Tests the blast command names.
const BLAST_TESTS_LISTED: usize = 20;

/// The one item a count needs.
const COUNT_ONLY: PageRequest = PageRequest { offset: 0, limit: 1 };

impl Session<'_> {
    pub(crate) fn code_lenses(&mut self, uri: &Uri) -> Result<EditorResult, EditorError> {
        let Some((relative, symbols)) = self.outline(uri)? else {
            return Ok(EditorResult::CodeLenses(Vec::new()));
        };
        let text = self.text_of(&relative);
        let mut shown = Vec::new();
        let settings = self.lens_settings.clone();
        for symbol in symbols.iter().filter(|symbol| settings.shows(symbol)) {
            // A dunder or a trait impl's method: only when something in the project calls it.
            if is_protocol_method(symbol) && self.callers_total(&symbol.id)? == 0 {
                continue;
            }
            shown.push(symbol);
        }
        let lenses = shown
            .into_iter()
            .map(|symbol| {
                let name = short_name(&symbol.qualified_name);
                unresolved_code_lens(range_of_name(text.as_deref(), symbol.line, name), &symbol.id)
            })
            .collect();
        Ok(EditorResult::CodeLenses(lenses))
    }

    pub(crate) fn resolve_code_lens(
        &mut self,
        lens: CodeLens,
    ) -> Result<EditorResult, EditorError> {
        let Some(address) = code_lens_address(&lens) else {
            return Ok(EditorResult::CodeLens(Box::new(lens)));
        };
        let title = match self.counts(&address) {
            Ok((callers, blast)) => lens_title(&callers, &blast),
            // The buffer changed since the lens was made and the symbol is gone.
            Err(error) if error.code == RpcError::SYMBOL_NOT_FOUND => {
                "not in the graph".to_string()
            }
            Err(error) => return Err(editor_error(error)),
        };
        Ok(EditorResult::CodeLens(Box::new(resolved_code_lens(lens.range, title, &address))))
    }

    /// How many call sites call a symbol.
    fn callers_total(&mut self, address: &str) -> Result<usize, EditorError> {
        let callers = Request::Callers { symbol: address.into(), page: COUNT_ONLY };
        match self.ask_daemon(&callers).map_err(editor_error)? {
            Answer::Neighbours(callers) => Ok(callers.total),
            other => Err(unexpected("callers", &other)),
        }
    }

    /// A symbol's callers (a count) and blast (counts of dependents and tests).
    fn counts(&mut self, address: &str) -> Result<(NeighboursAnswer, BlastAnswer), RpcError> {
        let callers = Request::Callers { symbol: address.into(), page: COUNT_ONLY };
        let walk = WalkParams { depth: None, tests_limit: Some(1), page: COUNT_ONLY };
        let blast = Request::Blast { subject: Subject::Symbol(address.into()), walk };
        match (self.ask_daemon(&callers)?, self.ask_daemon(&blast)?) {
            (Answer::Neighbours(callers), Answer::Blast(blast)) => Ok((callers, blast)),
            (callers, _) => Err(RpcError::new(
                RpcError::INTERNAL_ERROR,
                unexpected("callers and blast", &callers).message,
            )),
        }
    }

    pub(crate) fn hover(
        &mut self,
        position: &TextDocumentPositionParams,
    ) -> Result<EditorResult, EditorError> {
        let Some(symbol) = self.symbol_at(position)? else {
            return Ok(EditorResult::Hover(None));
        };
        let (callers, blast) = self.counts(&symbol.id).map_err(editor_error)?;
        let subject = Subject::Symbol(symbol.id.clone());
        // Context and ownership add to a hover; their failure (no git, say) does not stop it.
        let context = match self.ask(&Request::Context { subject: subject.clone() }) {
            Ok(Answer::Context(context)) => Some(context),
            _ => None,
        };
        let ownership = match self.ask(&Request::Ownership {
            subject,
            exclude_authors: Vec::new(),
            blame: tether_protocol::BlameParams::default(),
        }) {
            Ok(Answer::Ownership(ownership)) => Some(ownership),
            _ => None,
        };
        let facts = HoverFacts {
            symbol: &symbol,
            callers: &callers,
            blast: &blast,
            context: context.as_ref(),
            ownership: ownership.as_ref(),
        };
        let contents = HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover_markdown(&facts),
        });
        Ok(EditorResult::Hover(Some(Hover { contents, range: None })))
    }

    pub(crate) fn references(
        &mut self,
        params: &ReferenceParams,
    ) -> Result<EditorResult, EditorError> {
        let Some(symbol) = self.symbol_at(&params.text_document_position)? else {
            return Ok(EditorResult::Locations(Vec::new()));
        };
        let name = short_name(&symbol.qualified_name).to_string();
        let mut sites: Vec<String> = Vec::new();
        let page = PageRequest { offset: 0, limit: PageRequest::MAX_LIMIT };
        let callers = self.neighbours(Request::Callers { symbol: symbol.id.clone(), page })?;
        sites.extend(callers.items.into_iter().map(|item| item.site));
        let imports = self.neighbours(Request::Imports { symbol: symbol.id.clone(), page })?;
        sites.extend(
            imports
                .items
                .into_iter()
                .filter(|item| item.direction == "imported_by")
                .map(|item| item.site),
        );
        let mut locations = Vec::new();
        if params.context.include_declaration {
            locations.extend(self.location(&symbol.path, symbol.line, &name));
        }
        for site in sites {
            let Some((path, line)) = site.rsplit_once(':') else { continue };
            let Ok(line) = line.parse::<u32>() else { continue };
            locations.extend(self.location(path, line, &name));
        }
        locations.dedup();
        Ok(EditorResult::Locations(locations))
    }

    /// `tether.blast`: the blast answer, and its summary shown to the user.
    pub(crate) fn blast_command(&mut self, address: &str) -> Result<EditorResult, EditorError> {
        let page = PageRequest { offset: 0, limit: PageRequest::DEFAULT_LIMIT };
        let walk = WalkParams { depth: None, tests_limit: Some(BLAST_TESTS_LISTED), page };
        let request = Request::Blast { subject: Subject::Symbol(address.into()), walk };
        let blast = match self.ask(&request)? {
            Answer::Blast(blast) => blast,
            other => return Err(unexpected("blast", &other)),
        };
        let summary = show_message(MessageType::INFO, blast_summary(&blast));
        // The summary is a courtesy: an editor gone by now ends the session at its next read.
        let _ = self.send(summary);
        Ok(EditorResult::Blast(Box::new(blast)))
    }

    fn location(&mut self, path: &str, line: u32, name: &str) -> Option<Location> {
        let uri = uri_of_path(&self.root()?.join(path))?;
        let text = self.text_of(path);
        Some(Location { uri, range: range_of_name(text.as_deref(), line, name) })
    }
}
