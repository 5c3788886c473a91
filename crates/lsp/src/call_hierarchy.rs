//! Call hierarchy: the item under the cursor, its callers grouped by calling symbol, its
//! callees grouped by called symbol, each with the ranges of the call sites.

use std::collections::BTreeMap;

use crate::editor_messages::{
    call_hierarchy_address, EditorError, EditorResult, EDITOR_REQUEST_FAILED,
};
use lsp_types::{
    CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall,
    CallHierarchyPrepareParams, Range,
};
use tether_protocol::wire::{NeighbourItem, SymbolRef};
use tether_protocol::{PageRequest, Request};

use crate::documents::{range_of_name, uri_of_path};
use crate::editor_answers::{call_hierarchy_item, short_name};
use crate::session::Session;

/// At most this many call sites are listed per request (pages of the daemon's maximum).
pub(crate) const MAX_SITES: usize = 1000;

/// The sites of one neighbour, grouped.
struct Group {
    symbol: SymbolRef,
    sites: Vec<(String, u32)>,
}

impl Session<'_> {
    pub(crate) fn prepare_call_hierarchy(
        &mut self,
        params: &CallHierarchyPrepareParams,
    ) -> Result<EditorResult, EditorError> {
        let symbol = self.symbol_at(&params.text_document_position_params)?;
        let item = match symbol {
            Some(symbol) => self.hierarchy_item(&symbol),
            None => None,
        };
        Ok(EditorResult::CallHierarchyItems(item.map(|item| vec![item])))
    }

    pub(crate) fn incoming_calls(
        &mut self,
        item: &CallHierarchyItem,
    ) -> Result<EditorResult, EditorError> {
        let address = item_address(item)?;
        let groups = self.grouped(|page| Request::Callers { symbol: address.clone(), page })?;
        let mut calls = Vec::new();
        for group in groups {
            let Some(from) = self.hierarchy_item(&group.symbol) else { continue };
            let from_ranges = self.site_ranges(&group.sites, &item.name);
            calls.push(CallHierarchyIncomingCall { from, from_ranges });
        }
        Ok(EditorResult::IncomingCalls(calls))
    }

    pub(crate) fn outgoing_calls(
        &mut self,
        item: &CallHierarchyItem,
    ) -> Result<EditorResult, EditorError> {
        let address = item_address(item)?;
        let groups = self.grouped(|page| Request::Callees { symbol: address.clone(), page })?;
        let mut calls = Vec::new();
        for group in groups {
            let name = short_name(&group.symbol.qualified_name).to_string();
            let Some(to) = self.hierarchy_item(&group.symbol) else { continue };
            let from_ranges = self.site_ranges(&group.sites, &name);
            calls.push(CallHierarchyOutgoingCall { to, from_ranges });
        }
        Ok(EditorResult::OutgoingCalls(calls))
    }

    /// An item for a symbol of the repository; `None` for one outside it (no file to show).
    pub(crate) fn hierarchy_item(&mut self, symbol: &SymbolRef) -> Option<CallHierarchyItem> {
        if symbol.path.is_empty() {
            return None;
        }
        let uri = uri_of_path(&self.root()?.join(&symbol.path))?;
        let text = self.text_of(&symbol.path);
        Some(call_hierarchy_item(symbol, uri, text.as_deref()))
    }

    /// Every page of a neighbours request (up to [`MAX_SITES`]), grouped by neighbour in
    /// the daemon's rank order.
    fn grouped(
        &mut self,
        request: impl Fn(PageRequest) -> Request,
    ) -> Result<Vec<Group>, EditorError> {
        let mut items: Vec<NeighbourItem> = Vec::new();
        let mut offset = 0;
        loop {
            let page = PageRequest { offset, limit: PageRequest::MAX_LIMIT };
            let answer = self.neighbours(request(page))?;
            let received = answer.items.len();
            items.extend(answer.items);
            offset += received;
            if answer.next_cursor.is_none() || received == 0 || items.len() >= MAX_SITES {
                break;
            }
        }
        let mut order: Vec<String> = Vec::new();
        let mut groups: BTreeMap<String, Group> = BTreeMap::new();
        for item in items {
            let site = parse_site(&item.site);
            let group = groups.entry(item.symbol.id.clone()).or_insert_with(|| {
                order.push(item.symbol.id.clone());
                Group { symbol: item.symbol.clone(), sites: Vec::new() }
            });
            group.sites.extend(site);
        }
        Ok(order.into_iter().filter_map(|id| groups.remove(&id)).collect())
    }

    /// The ranges of `name` at each `path:line` site.
    fn site_ranges(&mut self, sites: &[(String, u32)], name: &str) -> Vec<Range> {
        let mut texts: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut ranges = Vec::new();
        for (path, line) in sites {
            if !texts.contains_key(path) {
                let text = self.text_of(path);
                texts.insert(path.clone(), text);
            }
            let text = texts.get(path).and_then(Option::as_deref);
            ranges.push(range_of_name(text, *line, name));
        }
        ranges
    }
}

/// `path:line` split; `None` when the site has no line.
fn parse_site(site: &str) -> Option<(String, u32)> {
    let (path, line) = site.rsplit_once(':')?;
    Some((path.to_string(), line.parse().ok()?))
}

/// The symbol address an item carries; the qualified name for an item another server made.
fn item_address(item: &CallHierarchyItem) -> Result<String, EditorError> {
    call_hierarchy_address(item).or_else(|| item.detail.clone()).ok_or_else(|| EditorError {
        code: EDITOR_REQUEST_FAILED,
        message: "this call hierarchy item names no tether symbol".into(),
    })
}
