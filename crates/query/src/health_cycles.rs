//! Cycles between files: strongly connected components of the files' module-level IMPORTS
//! (an import inside a function runs late and is how Python code breaks an import cycle, so
//! it does not count), and separately of their CALLS. Each component is reported once, with
//! one shortest cycle through its first file, every hop at the file:line of the import or
//! call that makes it. Tarjan's algorithm, iterative: the graph can be deep.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::FxHashMap as HashMap;

use tether_model::{EdgeKind, Language, SymbolKind};

use crate::health::HealthOptions;
use crate::snapshot::Snapshot;

/// Which edges make the cycle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CycleGraph {
    Imports,
    Calls,
}

impl CycleGraph {
    pub fn as_str(self) -> &'static str {
        match self {
            CycleGraph::Imports => "imports",
            CycleGraph::Calls => "calls",
        }
    }
}

/// One hop of a cycle: `from` depends on `to` at `from`'s `line`.
#[derive(Clone, PartialEq, Debug)]
pub struct CycleHop {
    pub from: String,
    pub to: String,
    pub line: u32,
}

/// A strongly connected component of files, with one shortest cycle through it.
#[derive(Clone, PartialEq, Debug)]
pub struct Cycle {
    pub graph: CycleGraph,
    /// Files in the component (the cycle shown may pass through fewer).
    pub files: usize,
    pub hops: Vec<CycleHop>,
}

/// File-to-file dependencies: for each file, the files it depends on, each with the first
/// line that does.
type FileGraph = BTreeMap<String, BTreeMap<String, u32>>;

impl Snapshot {
    /// Import cycles, then call cycles; larger components first.
    pub(crate) fn cycles(&self, options: &HealthOptions) -> Vec<Cycle> {
        let mut cycles = Vec::new();
        for graph in [CycleGraph::Imports, CycleGraph::Calls] {
            let files = self.file_graph(graph);
            let mut found: Vec<Cycle> = strongly_connected(&files)
                .into_iter()
                .filter(|component| component.len() > 1)
                .filter(|component| {
                    component.iter().any(|path| Snapshot::in_health_folder(path, options))
                })
                .map(|component| Cycle {
                    graph,
                    files: component.len(),
                    hops: shortest_cycle(&files, &component),
                })
                .collect();
            found.sort_by(|a, b| {
                b.files.cmp(&a.files).then_with(|| a.hops[0].from.cmp(&b.hops[0].from))
            });
            cycles.extend(found);
        }
        cycles
    }

    fn file_graph(&self, graph: CycleGraph) -> FileGraph {
        let mut files: FileGraph = BTreeMap::new();
        let module_names: HashMap<&str, &str> = self
            .by_path
            .keys()
            .filter_map(|path| {
                let module = crate::health::module_of_file(self, path)?;
                Some((path.as_str(), self.symbol(module).qualified_name.as_str()))
            })
            .collect();
        let module_name = |path: &str| module_names.get(path).copied();
        for edge in self.dependency_edges() {
            let source = self.symbol(edge.source);
            let target = self.symbol(edge.target);
            let counts = match graph {
                CycleGraph::Imports => {
                    edge.edge.kind == EdgeKind::Imports && source.kind == SymbolKind::Module
                }
                CycleGraph::Calls => edge.edge.kind == EdgeKind::Calls,
            };
            if !counts {
                continue;
            }
            // A Rust module using what an enclosing module defines (`use crate::Item` in a
            // child of lib.rs, which declares it with `mod`) is how Rust code is laid out:
            // no import runs, and the parent's `mod` is not a dependency the child can knot.
            if source.language == Language::Rust {
                if let (Some(from), Some(to)) =
                    (module_name(&source.path), module_name(&target.path))
                {
                    if from.strip_prefix(to).is_some_and(|rest| rest.starts_with("::")) {
                        continue;
                    }
                }
            }
            let line = files
                .entry(source.path.clone())
                .or_default()
                .entry(target.path.clone())
                .or_insert(edge.edge.line);
            *line = (*line).min(edge.edge.line);
        }
        files
    }
}

/// The strongly connected components (Tarjan, with an explicit stack), each sorted by path.
fn strongly_connected(files: &FileGraph) -> Vec<Vec<String>> {
    let names: Vec<&String> = files.keys().collect();
    let position: HashMap<&String, usize> =
        names.iter().enumerate().map(|(index, name)| (*name, index)).collect();
    let successors: Vec<Vec<usize>> = names
        .iter()
        .map(|name| files[*name].keys().filter_map(|to| position.get(to).copied()).collect())
        .collect();
    let count = names.len();
    let mut index_of = vec![usize::MAX; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = Vec::new();
    for root in 0..count {
        if index_of[root] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut work = vec![(root, 0usize)];
        index_of[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut next)) = work.last_mut() {
            if let Some(&successor) = successors[node].get(*next) {
                *next += 1;
                if index_of[successor] == usize::MAX {
                    index_of[successor] = next_index;
                    low[successor] = next_index;
                    next_index += 1;
                    stack.push(successor);
                    on_stack[successor] = true;
                    work.push((successor, 0));
                } else if on_stack[successor] {
                    low[node] = low[node].min(index_of[successor]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index_of[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(names[member].clone());
                    if member == node {
                        break;
                    }
                }
                component.sort();
                components.push(component);
            }
        }
    }
    components
}

/// A shortest cycle through the component's first file, staying inside the component
/// (breadth-first; successors in path order, so the answer is the same on every run).
fn shortest_cycle(files: &FileGraph, component: &[String]) -> Vec<CycleHop> {
    let start = &component[0];
    let inside = |path: &String| component.binary_search(path).is_ok();
    let mut came_from: HashMap<&String, &String> = HashMap::default();
    let mut queue = VecDeque::from([start]);
    let mut last = None;
    'search: while let Some(file) = queue.pop_front() {
        for to in files.get(file).into_iter().flat_map(|targets| targets.keys()) {
            if to == start {
                last = Some(file);
                break 'search;
            }
            if inside(to) && !came_from.contains_key(to) {
                came_from.insert(to, file);
                queue.push_back(to);
            }
        }
    }
    let mut path = vec![start];
    let mut at = last.expect("a strongly connected component of two or more files has a cycle");
    while at != start {
        path.push(at);
        at = came_from[at];
    }
    path.push(start);
    path.reverse();
    path.windows(2)
        .map(|pair| CycleHop {
            from: pair[0].clone(),
            to: pair[1].clone(),
            line: files[pair[0]][pair[1]],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{shortest_cycle, strongly_connected, FileGraph};

    /// A ring of 200,000 files: one component, found without recursion (a recursive walk
    /// would overflow the stack long before), and its only cycle runs through every file.
    #[test]
    fn a_ring_deeper_than_any_stack_is_one_component() {
        let count = 200_000;
        let name = |index: usize| format!("f{index:06}.py");
        let mut files = FileGraph::new();
        for index in 0..count {
            files.entry(name(index)).or_default().insert(name((index + 1) % count), 1);
        }
        let components = strongly_connected(&files);
        assert_eq!(components.len(), 1);
        assert_eq!(components[0].len(), count);
        let hops = shortest_cycle(&files, &components[0]);
        assert_eq!(hops.len(), count);
        assert_eq!(
            (hops[0].from.as_str(), hops[count - 1].to.as_str()),
            ("f000000.py", "f000000.py")
        );
    }

    /// Two cycles joined by a one-way edge are two components; a file on no cycle is alone.
    #[test]
    fn components_are_separate_across_a_one_way_edge() {
        let mut files = FileGraph::new();
        for (from, to) in [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("d", "c"), ("d", "e")] {
            files.entry(from.to_string()).or_default().insert(to.to_string(), 1);
        }
        let mut components = strongly_connected(&files);
        components.sort();
        assert_eq!(components, [vec!["a", "b"], vec!["c", "d"]]);
    }
}
