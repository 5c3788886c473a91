//! Which binding of a name a use sees: within the scope being resolved, the nearest binding
//! on an earlier line (a later `let x` or another closure's `|x|` is another variable).
//!
//! The use's position travels in a per-thread "line limit": resolving a call site sets it to
//! the line after the call, typing a binding's value sets it to the binding's own line.

use std::cell::Cell;

use tether_model::Binding;

use crate::project_index::Sym;

thread_local! {
    static LINE_LIMIT: Cell<Option<(Sym, u32)>> = const { Cell::new(None) };
}

/// Runs `work` with uses in `scope` seeing only bindings on lines before `limit`.
pub(crate) fn with_line_limit<T>(scope: Sym, limit: u32, work: impl FnOnce() -> T) -> T {
    let previous = LINE_LIMIT.with(|cell| cell.replace(Some((scope, limit))));
    let result = work();
    LINE_LIMIT.with(|cell| cell.set(previous));
    result
}

/// The bindings of a name in `scope` made before the current use, when its position decides,
/// split into the earlier ones and those on the nearest line (several when one line binds
/// the name more than once). `None` when the use is elsewhere (a function using a module's
/// global) or when no binding comes before it (a loop using a name bound further down): any
/// binding may be meant.
pub(crate) fn bindings_before_use<'b, 'a>(scope: Sym, bindings: &'b [&'a Binding]) -> Option<(&'b [&'a Binding], &'b [&'a Binding])> {
    let (limit_scope, limit) = LINE_LIMIT.with(Cell::get)?;
    if limit_scope != scope {
        return None;
    }
    // The project index keeps each name's bindings sorted by line.
    let before = bindings.partition_point(|binding| binding.line < limit);
    if before == 0 {
        return None;
    }
    let nearest_line = bindings[before - 1].line;
    let first = bindings[..before].partition_point(|binding| binding.line < nearest_line);
    Some((&bindings[..first], &bindings[first..before]))
}
