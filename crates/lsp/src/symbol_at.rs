//! The symbol under the editor's cursor: the callee whose call site is on the cursor's line
//! and whose name is the word under it, else the innermost symbol of the file's outline
//! that holds the line (on a definition's name: that definition).

use crate::editor_messages::EditorError;
use lsp_types::{TextDocumentPositionParams, Uri};
use tether_protocol::wire::{Answer, NeighboursAnswer, SymbolRef};
use tether_protocol::{PageRequest, Request};

use crate::documents::{path_of_uri, word_at};
use crate::editor_answers::short_name;
use crate::session::Session;

/// Callees asked of the enclosing symbol to find the one called under the cursor.
const CALLEES_SCANNED: usize = PageRequest::MAX_LIMIT;

impl Session<'_> {
    /// A file's symbols, in line order, and its repository path; `None` outside the
    /// repository or for a file that is not a source file.
    pub(crate) fn outline(
        &mut self,
        uri: &Uri,
    ) -> Result<Option<(String, Vec<SymbolRef>)>, EditorError> {
        let Some(relative) = path_of_uri(uri).and_then(|path| self.repository_path(&path)) else {
            return Ok(None);
        };
        if !(relative.ends_with(".py") || relative.ends_with(".rs")) {
            return Ok(None);
        }
        match self.ask(&Request::Outline { path: relative.clone() })? {
            Answer::Outline(outline) => Ok(Some((relative, outline.items))),
            other => Err(unexpected("outline", &other)),
        }
    }

    /// The symbol at a position.
    pub(crate) fn symbol_at(
        &mut self,
        position: &TextDocumentPositionParams,
    ) -> Result<Option<SymbolRef>, EditorError> {
        let Some((relative, symbols)) = self.outline(&position.text_document.uri)? else {
            return Ok(None);
        };
        let line = position.position.line + 1;
        let text = self.text_of(&relative);
        let word = text.as_deref().and_then(|text| word_at(text, position.position));
        if let Some(word) = word {
            let defined_here = symbols
                .iter()
                .find(|symbol| symbol.line == line && short_name(&symbol.qualified_name) == word);
            if let Some(symbol) = defined_here {
                return Ok(Some(symbol.clone()));
            }
        }
        let Some(enclosing) = innermost(&symbols, line) else { return Ok(None) };
        if let Some(word) = word {
            let site = format!("{relative}:{line}");
            let callees = self.neighbours(Request::Callees {
                symbol: enclosing.id.clone(),
                page: PageRequest { offset: 0, limit: CALLEES_SCANNED },
            })?;
            let called_here = callees
                .items
                .into_iter()
                .find(|item| item.site == site && short_name(&item.symbol.qualified_name) == word);
            if let Some(item) = called_here {
                return Ok(Some(item.symbol));
            }
        }
        Ok(Some(enclosing.clone()))
    }

    /// `callers`, `callees` or `imports`, one page.
    pub(crate) fn neighbours(&mut self, request: Request) -> Result<NeighboursAnswer, EditorError> {
        match self.ask(&request)? {
            Answer::Neighbours(answer) => Ok(answer),
            other => Err(unexpected(request.method().as_str(), &other)),
        }
    }
}

/// The narrowest symbol whose lines hold `line` (modules included: module-level code).
fn innermost(symbols: &[SymbolRef], line: u32) -> Option<&SymbolRef> {
    symbols
        .iter()
        .filter(|symbol| symbol.line <= line && line <= symbol.end_line.max(symbol.line))
        .min_by_key(|symbol| symbol.end_line.saturating_sub(symbol.line))
}

/// The daemon answered with another answer's shape.
pub(crate) fn unexpected(method: &str, answer: &Answer) -> EditorError {
    EditorError {
        code: crate::editor_messages::EDITOR_REQUEST_FAILED,
        message: format!(
            "tether answered {method} with an unexpected answer: {}",
            format!("{answer:?}").chars().take(80).collect::<String>()
        ),
    }
}
