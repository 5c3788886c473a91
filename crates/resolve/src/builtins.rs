//! Names that resolve to the language itself: Python's builtins, Rust's prelude and std macros.

/// Python's builtin functions, types and exceptions that code calls.
pub(crate) const PYTHON_BUILTINS: &[&str] = &[
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr",
    "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter",
    "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int",
    "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct",
    "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice",
    "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "__import__", "NotImplemented",
    "BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError", "BlockingIOError",
    "BrokenPipeError", "BufferError", "ChildProcessError", "ConnectionError", "ConnectionAbortedError",
    "ConnectionRefusedError", "ConnectionResetError", "DeprecationWarning", "EOFError", "EnvironmentError",
    "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit", "ImportError",
    "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IOError", "IsADirectoryError", "KeyError",
    "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError",
    "NotImplementedError", "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration",
    "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError",
    "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError",
    "UnicodeWarning", "UserWarning", "ValueError", "Warning", "ZeroDivisionError", "ExceptionGroup", "BaseExceptionGroup",
];

/// Rust prelude items (2021 edition) and common std items reachable without a `use`.
pub(crate) const RUST_PRELUDE: &[&str] = &[
    "Box", "String", "Vec", "Option", "Some", "None", "Result", "Ok", "Err", "drop", "Default", "Clone", "Copy", "Send",
    "Sync", "Sized", "Unpin", "Drop", "Fn", "FnMut", "FnOnce", "From", "Into", "TryFrom", "TryInto", "AsRef", "AsMut",
    "Iterator", "IntoIterator", "DoubleEndedIterator", "ExactSizeIterator", "Extend", "FromIterator", "PartialEq", "Eq",
    "PartialOrd", "Ord", "ToOwned", "ToString", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "f32", "f64", "bool", "Future", "IntoFuture",
];

/// Crates that are always external to a project.
pub(crate) const RUST_EXTERNAL_ROOTS: &[&str] = &["std", "core", "alloc", "proc_macro", "test"];

/// Macros of the standard library.
pub(crate) const RUST_STD_MACROS: &[&str] = &[
    "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne", "cfg", "column",
    "compile_error", "concat", "dbg", "env", "eprint", "eprintln", "file", "format", "format_args", "include",
    "include_bytes", "include_str", "line", "matches", "module_path", "option_env", "panic", "print", "println",
    "stringify", "thread_local", "todo", "unimplemented", "unreachable", "vec", "write", "writeln", "try", "addr_of",
    "addr_of_mut", "const_format_args", "concat_idents", "is_x86_feature_detected",
];

pub(crate) fn is_python_builtin(name: &str) -> bool {
    PYTHON_BUILTINS.contains(&name)
}

pub(crate) fn is_rust_prelude(name: &str) -> bool {
    RUST_PRELUDE.contains(&name)
}

/// The std trait whose derived or blanket impl gives every type method `name` that its own
/// impls lack: `clone` (derive), `into` (from a `From` impl), `to_string` (from `Display`).
pub(crate) fn rust_std_trait_of_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "clone" | "clone_from" => "Clone",
        "to_owned" => "ToOwned",
        "to_string" => "ToString",
        "into" => "Into",
        "try_into" => "TryInto",
        "eq" | "ne" => "PartialEq",
        "partial_cmp" | "lt" | "le" | "gt" | "ge" => "PartialOrd",
        "cmp" | "max" | "min" | "clamp" => "Ord",
        "hash" => "Hash",
        "fmt" => "Debug",
        "default" => "Default",
        "borrow" => "Borrow",
        "borrow_mut" => "BorrowMut",
        "type_id" => "Any",
        _ => return None,
    })
}

pub(crate) fn is_rust_std_macro(name: &str) -> bool {
    RUST_STD_MACROS.contains(&name)
}
