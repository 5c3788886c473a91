//! A deterministic synthetic corpus: Python packages and a Rust crate whose modules import
//! and call each other, with classes, methods, impls and traits, at any size.

use std::fmt::Write;
use std::path::Path;

use anyhow::{bail, Context};

pub struct Written {
    pub files: usize,
    pub lines: usize,
    pub bytes: usize,
}

/// A small deterministic generator (SplitMix64), so corpora are the same on every machine.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

/// About 300 lines per file; half the lines Python, half Rust.
const LINES_PER_FILE: usize = 300;

pub fn generate(out: &Path, lines: usize, seed: u64) -> anyhow::Result<Written> {
    if out.exists() && std::fs::read_dir(out)?.next().is_some() {
        bail!("{} is not empty; choose a new folder", out.display());
    }
    let mut random = Random(seed);
    let files_per_language = (lines / LINES_PER_FILE / 2).max(1);
    let mut written = Written { files: 0, lines: 0, bytes: 0 };
    let mut write = |relative: &str, text: String| -> anyhow::Result<()> {
        let path = out.join(relative);
        std::fs::create_dir_all(path.parent().expect("relative paths have a parent"))?;
        written.files += 1;
        written.lines += text.lines().count();
        written.bytes += text.len();
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };

    let packages = files_per_language.div_ceil(20);
    write("py/pyproject.toml", "[project]\nname = \"synthetic\"\n".to_string())?;
    for package in 0..packages {
        write(
            &format!("py/synthetic/p{package}/__init__.py"),
            format!("from .m0 import function_0 as entry_{package}\n"),
        )?;
    }
    write("py/synthetic/__init__.py", String::new())?;
    for file in 0..files_per_language {
        let package = file / 20;
        let module = file % 20;
        write(
            &format!("py/synthetic/p{package}/m{module}.py"),
            python_module(&mut random, files_per_language),
        )?;
    }

    write(
        "rs/Cargo.toml",
        "[package]\nname = \"synthetic\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_string(),
    )?;
    let mut lib = String::from("//! Synthetic crate root.\n");
    for file in 0..files_per_language {
        let _ = writeln!(lib, "pub mod m{file};");
    }
    write("rs/src/lib.rs", lib)?;
    for file in 0..files_per_language {
        write(&format!("rs/src/m{file}.rs"), rust_module(&mut random, files_per_language, file))?;
    }
    Ok(written)
}

fn python_module(random: &mut Random, file_count: usize) -> String {
    let mut text = String::new();
    let imports: Vec<usize> = (0..3).map(|_| random.below(file_count)).collect();
    for other in &imports {
        let _ = writeln!(
            text,
            "from synthetic.p{}.m{} import function_1 as imported_{other}",
            other / 20,
            other % 20
        );
    }
    let _ =
        writeln!(text, "import synthetic.p{}.m{} as neighbour\n", imports[0] / 20, imports[0] % 20);
    for class in 0..4 {
        let _ = writeln!(text, "class Model{class}:");
        let _ = writeln!(text, "    def __init__(self, size: int):\n        self.size = size\n        self.helper = Helper{class}()\n");
        for method in 0..5 {
            let _ = writeln!(text, "    def method_{method}(self, value):");
            let _ = writeln!(text, "        total = self.size + value");
            let _ = writeln!(text, "        self.helper.assist(total)");
            let _ = writeln!(text, "        if total > {}:", random.below(100));
            let _ =
                writeln!(text, "            return self.method_{}(total - 1)", (method + 1) % 5);
            let _ = writeln!(text, "        return function_{}(total)\n", random.below(8));
        }
        let _ = writeln!(
            text,
            "class Helper{class}:\n    def assist(self, value):\n        return len(str(value))\n"
        );
    }
    for function in 0..8 {
        let other = imports[function % imports.len()];
        let _ = writeln!(text, "def function_{function}(value):");
        let _ = writeln!(text, "    model = Model{}(value)", function % 4);
        let _ = writeln!(text, "    model.method_{}(value)", function % 5);
        let _ = writeln!(
            text,
            "    items = sorted([value, {}], key=lambda item: -item)",
            random.below(1000)
        );
        let _ = writeln!(text, "    neighbour.function_{}(items[0])", random.below(8));
        let _ = writeln!(
            text,
            "    return imported_{other}(value) if value else {}\n",
            random.below(10)
        );
    }
    text
}

fn rust_module(random: &mut Random, file_count: usize, file: usize) -> String {
    let mut text = String::new();
    let imports: Vec<usize> = (0..3).map(|_| random.below(file_count)).collect();
    let _ = writeln!(text, "//! Synthetic module {file}.\n");
    for other in &imports {
        let _ = writeln!(text, "use crate::m{other}::function_1 as imported_{other};");
    }
    let _ = writeln!(text, "use crate::m{} as neighbour;\n", imports[0]);
    let _ = writeln!(text, "pub trait Shape {{\n    fn area(&self) -> u64;\n    fn describe(&self) -> u64 {{ self.area() + 1 }}\n}}\n");
    for structure in 0..4 {
        let _ = writeln!(
            text,
            "pub struct Model{structure} {{\n    size: u64,\n    helper: Helper{structure},\n}}\n"
        );
        let _ = writeln!(text, "pub struct Helper{structure};\n\nimpl Helper{structure} {{\n    pub fn assist(&self, value: u64) -> u64 {{ value.count_ones() as u64 }}\n}}\n");
        let _ = writeln!(text, "impl Model{structure} {{");
        let _ = writeln!(
            text,
            "    pub fn new(size: u64) -> Self {{ Self {{ size, helper: Helper{structure} }} }}\n"
        );
        for method in 0..5 {
            let _ = writeln!(text, "    pub fn method_{method}(&self, value: u64) -> u64 {{");
            let _ = writeln!(text, "        let total = self.size + value;");
            let _ = writeln!(text, "        self.helper.assist(total);");
            let _ = writeln!(text, "        if total > {} {{", random.below(100));
            let _ =
                writeln!(text, "            return self.method_{}(total - 1);", (method + 1) % 5);
            let _ =
                writeln!(text, "        }}\n        function_{}(total)\n    }}\n", random.below(8));
        }
        let _ = writeln!(text, "}}\n\nimpl Shape for Model{structure} {{\n    fn area(&self) -> u64 {{ self.size * self.size }}\n}}\n");
    }
    for function in 0..8 {
        let other = imports[function % imports.len()];
        let _ = writeln!(text, "pub fn function_{function}(value: u64) -> u64 {{");
        let _ = writeln!(text, "    let model = Model{}::new(value);", function % 4);
        let _ = writeln!(text, "    model.method_{}(value);", function % 5);
        let _ = writeln!(text, "    let shape: &dyn Shape = &model;");
        let _ = writeln!(text, "    let mut items = vec![value, {}];", random.below(1000));
        let _ = writeln!(text, "    items.sort_by_key(|item| u64::MAX - item);");
        let _ = writeln!(text, "    neighbour::function_{}(shape.describe());", random.below(8));
        let _ = writeln!(
            text,
            "    if value == 0 {{ {} }} else {{ imported_{other}(value - 1) }}\n}}\n",
            random.below(10)
        );
    }
    text
}
