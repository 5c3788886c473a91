//! Out-of-line modules declared inside inline ones: `mod support { pub mod mpsc; }` in a test
//! crate's `tests/stream_chain.rs` is the file `tests/support/mpsc.rs`. Extraction names files
//! by where they are, so that file is a module of its own; a member lookup on the inline module
//! that finds no item of that name looks for the file rustc would read.

use tether_model::SymbolKind;

use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// The file module that `name` declared with `mod name;` inside the inline module `module`
    /// would be, if the project has that file.
    pub(crate) fn out_of_line_submodule(&self, module: Sym, name: &str) -> Option<Sym> {
        let inline = self.index.symbol(module);
        if inline.kind != SymbolKind::Module || inline.parent.is_none() {
            return None;
        }
        let file_module = self.index.module_of[module as usize];
        let file = self.index.symbol(file_module);
        // The inline modules between the file and `module`: `support` in `stream_chain::support`.
        let nested =
            inline.qualified_name.strip_prefix(file.qualified_name.as_str())?.strip_prefix("::")?;
        let (folder, stem) = match file.path.rsplit_once('/') {
            Some((folder, file_name)) => (folder, file_name.strip_suffix(".rs")?),
            None => ("", file.path.strip_suffix(".rs")?),
        };
        // A crate root or a `mod.rs` owns its folder; any other `a.rs` owns `a/`.
        let is_crate_root = !file.qualified_name.contains("::");
        let owned_folder = if is_crate_root || stem == "mod" {
            folder.to_string()
        } else if folder.is_empty() {
            stem.to_string()
        } else {
            format!("{folder}/{stem}")
        };
        let mut base = owned_folder;
        for segment in nested.split("::") {
            if !base.is_empty() {
                base.push('/');
            }
            base.push_str(segment);
        }
        [format!("{base}/{name}.rs"), format!("{base}/{name}/mod.rs")]
            .iter()
            .find_map(|path| self.index.file_modules_by_path.get(path.as_str()).copied())
            .filter(|found| self.index.symbol(*found).language == tether_model::Language::Rust)
    }
}
