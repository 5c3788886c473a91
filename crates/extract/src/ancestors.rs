//! A node's ancestors from one descent from the root of the tree being extracted, instead of
//! one `Node::parent` per level: tree-sitter answers each `parent` by descending from the
//! root again, so walking up `d` levels costs `d` descents.

use std::cell::RefCell;

use tree_sitter::{Node, Tree};

thread_local! {
    /// The tree this thread is extracting (a cheap reference-counted copy), if any.
    static TREE_BEING_EXTRACTED: RefCell<Option<Tree>> = const { RefCell::new(None) };
}

/// Clears the thread's tree when extraction of a file ends, even by a panic.
struct ExtractingGuard;

impl Drop for ExtractingGuard {
    fn drop(&mut self) {
        TREE_BEING_EXTRACTED.with(|tree| tree.borrow_mut().take());
    }
}

/// Runs `extract` with `tree` as this thread's tree being extracted, which
/// [`with_ancestors`] descends from.
pub(crate) fn while_extracting<R>(tree: &Tree, extract: impl FnOnce() -> R) -> R {
    TREE_BEING_EXTRACTED.with(|current| *current.borrow_mut() = Some(tree.clone()));
    let _guard = ExtractingGuard;
    extract()
}

/// Calls `with` with the ancestors of `node`, innermost first (the root last). A node of
/// another tree than the one being extracted gets them by walking up. The root given is the
/// copy's: compare it by kind and range, not by id.
pub(crate) fn with_ancestors<R>(node: Node<'_>, with: impl FnOnce(&[Node<'_>]) -> R) -> R {
    TREE_BEING_EXTRACTED.with(|tree| {
        let tree = tree.borrow();
        if let Some(chain) = tree.as_ref().and_then(|tree| descend(tree.root_node(), node)) {
            return with(&chain);
        }
        let mut chain = Vec::new();
        let mut current = node.parent();
        while let Some(ancestor) = current {
            chain.push(ancestor);
            current = ancestor.parent();
        }
        with(&chain)
    })
}

/// The nodes from `root` down to `node`'s parent, innermost first; `None` if `root`'s tree
/// does not hold `node`.
fn descend<'tree>(root: Node<'tree>, node: Node<'tree>) -> Option<Vec<Node<'tree>>> {
    // A tree's copy has its own root node (every other node is shared).
    let spans_the_root = node.byte_range() == root.byte_range() && node.kind_id() == root.kind_id();
    if spans_the_root && node.parent().is_none() {
        return Some(Vec::new());
    }
    if node.start_byte() < root.start_byte() || node.end_byte() > root.end_byte() {
        return None;
    }
    let mut chain = vec![root];
    let mut current = root;
    loop {
        let next = current.child_with_descendant(node)?;
        if next.id() == node.id() {
            break;
        }
        if next.id() == current.id() || chain.len() > 100_000 {
            return None;
        }
        chain.push(next);
        current = next;
    }
    chain.reverse();
    Some(chain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_descent_finds_what_walking_up_finds() {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_rust::LANGUAGE.into()).unwrap();
        let source =
            "impl<T: Clone> S<T> { fn f(&self) { let x = || { g::<T>(a.b().c()) }; } }\nfn h() {}";
        let tree = parser.parse(source, None).unwrap();
        let mut checked = 0;
        let mut cursor = tree.walk();
        'walk: loop {
            let node = cursor.node();
            let identity = |ancestor: &Node<'_>| (ancestor.kind_id(), ancestor.byte_range());
            let mut walked = Vec::new();
            let mut current = node.parent();
            while let Some(ancestor) = current {
                walked.push(identity(&ancestor));
                current = ancestor.parent();
            }
            let descended = while_extracting(&tree, || {
                with_ancestors(node, |chain| chain.iter().map(identity).collect::<Vec<_>>())
            });
            assert_eq!(descended, walked, "{}", node.kind());
            checked += 1;
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        assert!(checked > 50);
    }
}
