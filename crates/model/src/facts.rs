//! Per-file facts: what extraction learns from one file, before any cross-file resolution.
//!
//! Facts keep the structure of each reference (a path of segments, a receiver) rather than
//! its text alone, so that the resolver can bind it through scopes, imports and types.

use crate::diagnostic::Diagnostic;
use crate::id::SymbolId;
use crate::symbol::{Language, Symbol};

/// Everything extraction learned from one file.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct FileFacts {
    pub path: String,
    pub language: Option<Language>,
    /// The file's module comes first; every other symbol's parent precedes it.
    pub symbols: Vec<Symbol>,
    pub calls: Vec<CallSite>,
    /// Functions passed as values to higher-order functions (`map(f, xs)`, `sorted(key=f)`):
    /// the caller may call them. Bound like calls; dropped when they name no function.
    pub function_references: Vec<CallSite>,
    /// Names used as values (passed, stored, returned, a default, a decorated definition):
    /// those that denote project functions, methods or classes become REFERENCES edges, and
    /// answers about those symbols say that calls through values may reach them.
    pub value_references: Vec<CallSite>,
    /// Python reads of names the code computes (`getattr(obj, name)` with a name not written
    /// as a string, `eval`/`exec` of code not written as one): the callee is the path of what
    /// may be read (`obj`; empty for the module's own globals). Its project callables escape.
    pub dynamic_reads: Vec<CallSite>,
    /// Calls the language makes for a construct with no call expression (`with x:` calls
    /// `x.__enter__()`, `a == b` `a.__eq__(b)`, `len(x)` `x.__len__()`): resolved like calls,
    /// kept only when bound to project code, and not counted among call sites.
    pub implicit_calls: Vec<CallSite>,
    /// Python attribute reads (`x.name`, not called or assigned): a property's getter runs.
    pub attribute_reads: Vec<CallSite>,
    /// Python attribute writes (`x.name = v`, `x.name += v`): a property's setter runs.
    pub attribute_writes: Vec<CallSite>,
    /// Pytest fixtures a test or fixture asks for by name (its parameters, `usefixtures`).
    pub fixture_requests: Vec<FixtureRequest>,
    /// Fixtures pytest knows by another name than their function's:
    /// `@pytest.fixture(name="client")` on `def _client()`.
    pub fixture_names: Vec<FixtureName>,
    /// Arguments of calls that name a value (`run(on_start)`, `run(callback=self.handle)`):
    /// what a parameter called as a function may hold (value flow).
    pub call_arguments: Vec<CallArgument>,
    /// Each function's parameters in order, with the value a default names.
    pub parameters: Vec<Parameter>,
    /// Attributes a method sets to one of its parameters (`self.callback = callback`).
    pub attribute_parameters: Vec<AttributeParameter>,
    /// Functions stored into fields: `Command { run: cmd_echo }`, `c.run = cmd_help`.
    pub field_stores: Vec<FieldStore>,
    /// Values put into containers after they are built: `handlers[key] = f`,
    /// `steps.append(f)`, `table.update({"k": f})` (Python).
    pub element_stores: Vec<ElementStore>,
    /// Calls in a `macro_rules!` body whose path has a metavariable segment
    /// (`$crate::audit::$stage()`, the caller being the macro): an invocation passing `open`
    /// calls `crate::audit::open` there.
    pub macro_template_calls: Vec<CallSite>,
    /// The names each macro invocation passes (`stages!(open, flush)`).
    pub macro_invocations: Vec<MacroInvocation>,
    pub imports: Vec<Import>,
    pub supertypes: Vec<SupertypeRef>,
    pub impls: Vec<ImplBlock>,
    /// The std traits each Rust type derives (`#[derive(PartialEq, Clone)]`), with the types
    /// its fields name: a derived impl calls the fields' impls.
    pub derives: Vec<DerivedTraits>,
    pub bindings: Vec<Binding>,
    pub diagnostics: Vec<Diagnostic>,
}

impl FileFacts {
    /// The file's module symbol, when the file was parsed.
    pub fn module(&self) -> Option<&Symbol> {
        self.symbols.first()
    }
}

/// A pytest fixture asked for by name: a parameter of a test or fixture (`def test_x(client)`),
/// or `@pytest.mark.usefixtures("db")` on a test, fixture or test class (the class's requests
/// are its test methods'). Pytest runs the fixture before the requester, whose result depends
/// on it.
#[derive(Clone, PartialEq, Debug)]
pub struct FixtureRequest {
    pub requester: SymbolId,
    pub name: String,
    /// 1-based line of the parameter or decorator.
    pub line: u32,
}

/// The name a pytest fixture is requested by when its decorator gives one
/// (`@pytest.fixture(name="async_app") def _async_app(): …`).
#[derive(Clone, PartialEq, Debug)]
pub struct FixtureName {
    pub fixture: SymbolId,
    pub name: String,
    /// 1-based line of the decorator.
    pub line: u32,
}

/// One call site (or Rust macro invocation) inside a caller.
#[derive(Clone, PartialEq, Debug)]
pub struct CallSite {
    /// The innermost enclosing function, method or module; lambdas and closures are
    /// attributed to their nearest named scope.
    pub caller: SymbolId,
    pub callee: CalleeExpr,
    /// 1-based line of the call.
    pub line: u32,
    /// Byte offset of the call in its file: which bindings are in force there.
    pub byte: u32,
    /// The callee expression as written, trimmed to at most 120 bytes (for reports).
    pub text: String,
}

/// A Rust macro invocation's caller and line, with the identifiers its token tree holds
/// (`stages!(open, flush)` gives `open`, `flush`): what a metavariable of the macro's rules
/// may stand for.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MacroInvocation {
    pub caller: SymbolId,
    pub line: u32,
    /// The macro's name (its path's last segment).
    pub macro_name: String,
    /// The identifiers at the token tree's top level, at most 32 distinct ones.
    pub identifiers: Vec<String>,
    /// Every identifier at any depth of the token tree not written as a call (`f(…)` is a
    /// call site of its own), distinct: names the expansion may call, where the resolver
    /// cannot follow it.
    pub mentions: Vec<String>,
}

/// An argument of a call that names a value: a plain name or a dotted path.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CallArgument {
    /// The call's scope and byte ([`CallSite::caller`], [`CallSite::byte`]).
    pub caller: SymbolId,
    pub call_byte: u32,
    /// Its position among the positional arguments, or its keyword.
    pub position: Option<u32>,
    pub keyword: Option<String>,
    /// What it names, and where (which bindings are in force).
    pub path: Vec<String>,
    pub byte: u32,
    pub form: ArgumentForm,
}

/// How an argument is written around the value it names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ArgumentForm {
    /// `name`, `&name` (Rust), `name=value` (Python keywords).
    Plain,
    /// Rust `*name`: the argument is what the name points to.
    Dereferenced,
    /// Python `*name`: the elements of a sequence, as positional arguments from here on.
    Unpacked,
    /// Python `**name`: the entries of a mapping, as keyword arguments.
    UnpackedKeywords,
    /// Python: the function or class a decorator is applied to, as it was defined (before the
    /// name denotes what the decorators return).
    Decorated,
    /// Python `C(…)`: what calling the path gives, an instance when it names a project class
    /// (`dispatch(EmailWorker())`).
    CallResult,
}

/// A parameter of a function, by position (`self` counts), with the value its default names.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Parameter {
    pub function: SymbolId,
    pub position: u32,
    pub name: String,
    pub kind: ParameterKind,
    /// A default that names a value (`callback=default_handler`), and its byte.
    pub default: Option<(Vec<String>, u32)>,
}

/// How a parameter receives its argument.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ParameterKind {
    /// By position or by keyword.
    Positional,
    /// Python, after `*` or `*args`: by keyword only.
    KeywordOnly,
    /// Python `*args`: the positional arguments from its position on.
    VarPositional,
    /// Python `**kwargs`: the keyword arguments no other parameter takes.
    VarKeyword,
}

/// An attribute a method sets to one of its own parameters: `self.on_click = on_click` in
/// `Button.__init__`. Calling the attribute calls what the method's callers pass.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AttributeParameter {
    pub class: SymbolId,
    pub attribute: String,
    pub method: SymbolId,
    pub parameter: String,
}

/// A function (or other named value) stored into a field of a struct: by a struct literal
/// (`Command { name: "echo", run: cmd_echo }`) or an assignment (`c.run = cmd_help`). Calling
/// the field (`(self.run)(x)`) may call what any such store put there.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldStore {
    /// The scope of the store, and where it is (which bindings are in force).
    pub scope: SymbolId,
    pub byte: u32,
    pub owner: FieldOwner,
    pub field: String,
    /// What is stored: a path naming a value.
    pub value: Vec<String>,
}

/// A named value put into a container: `handlers[func.__name__] = func`, `steps.append(f)`,
/// `self.commands[name] = f`, `table.update({"k": f})`. Calling an element of the container
/// (`handlers[k]()`, `for step in steps: step()`) may call what any store put there.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ElementStore {
    /// The scope of the store, and where it is (which bindings are in force).
    pub scope: SymbolId,
    pub byte: u32,
    /// The container, a path of names: `handlers`, `self.commands`, `registry.ROUTES`.
    pub container: Vec<String>,
    /// The literal key (`["k"]`, `[0]`), `None` when it is computed or the store appends.
    pub key: Option<String>,
    /// What is stored: a path naming a value.
    pub value: Vec<String>,
}

/// Whose field a [`FieldStore`] writes.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum FieldOwner {
    /// The type a struct literal builds: `Command { … }`.
    Literal(Vec<String>),
    /// The value an assignment writes into: `c` in `c.run = f`.
    Value(Receiver),
}

/// The structure of what is called.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum CalleeExpr {
    /// A plain name or a dotted / `::` path: `f()`, `m.f()`, `self.m()`, `a::b::f()`,
    /// `Type::new()`, `Self::new()`. Segments in source order; Rust generic arguments dropped.
    Path(Vec<String>),
    /// A method on a receiver that is not a plain path: `f().m()`, `x[0].m()`, and every Rust
    /// `receiver.m()` method call (Rust method calls always use this form).
    Method { receiver: Receiver, name: String },
    /// A Rust macro invocation `name!(…)` or `a::name!(…)`.
    Macro(Vec<String>),
    /// A call through a subscript of a name: `handlers[key]()`, `table.ops[0]()`.
    Indexed(Vec<String>),
    /// Calling what a call returns: `make_prefixer(">")(line)`, `pick(flag)(msg)`.
    Returned(Box<CalleeExpr>),
    /// Calling the value a field holds: Rust `(self.run)(x)`.
    FieldValue { receiver: Receiver, field: String },
    /// A Rust qualified path: `<Type as Trait>::name(…)`, the impl of `Trait` for `Type`.
    TraitPath { self_type: Vec<String>, trait_path: Vec<String>, name: String },
    /// A trait's method called on a value by the language, not by a written call: Rust's
    /// `Display::fmt` of a `{}` argument of `format!` (the impl of `Trait` for the value's type).
    TraitMethod { receiver: Receiver, trait_path: Vec<String>, name: String },
    /// One of the callees a conditional picks: Rust `(match mode { A => f, B => g })(x)`,
    /// `(if c { f } else { g })(x)`, each arm's value in source order.
    Alternatives(Vec<CalleeExpr>),
    /// Calling the value of an expression no path names: `next(handlers())(x)`.
    Value(Box<Receiver>),
    /// Anything else: `f()()`, `(lambda: 1)()`. Kept so the site is not lost.
    Other,
}

/// The receiver of a method call.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Receiver {
    /// `self`, `x`, `self.field`, `a.b.c`: a path of names.
    Path(Vec<String>),
    /// The result of a call: `Type::new().m()`, `make().m()`.
    Call(Box<CalleeExpr>),
    /// `inner?`: the value inside an `Option` or `Result` (Rust).
    Try(Box<Receiver>),
    /// `inner.await`: what a future (an `async fn`'s call, an `impl Future<Output = T>`)
    /// resolves to (Rust).
    Await(Box<Receiver>),
    /// `ready!(inner)` (std's `task::ready!`): the value inside the `Poll::Ready` (Rust).
    Ready(Box<Receiver>),
    /// `*inner`: what a project type's `impl Deref` gives, or what a pointer points to (Rust).
    Deref(Box<Receiver>),
    /// A Rust std adapter whose result holds what its closure or function argument returns:
    /// `x.map(|it| it.name())`, `x.and_then(ast::Expr::cast)`, `xs.filter_map(|it| it.m())`.
    /// `call` is the adapter call (`x.map`), `returned` the closure's value (`it.name()`, read
    /// at byte `at`, inside the closure, where its parameters are in force) or, for a function
    /// argument, a call of that function's path.
    Adapted { call: Box<CalleeExpr>, returned: Box<Receiver>, at: u32 },
    /// A Rust call with written generic arguments (`ctx.find_node::<ast::Fn>()`), which
    /// decide a return type written as the function's own generic parameter (`-> Option<N>`).
    Turbofish { call: Box<CalleeExpr>, arguments: Vec<BindingValue> },
    /// A call of a plain name the builtin-results table lists (Python `next(gen())`,
    /// `map(f, xs)`, `iter(xs)`), with its positional arguments: where the name is the
    /// builtin, the value is made of theirs (`queries/python/builtin_results.txt`).
    BuiltinCall { name: String, arguments: Vec<Receiver> },
    /// `inner[from:to]` with literal bounds (Python), either left out: the elements of a
    /// list or tuple literal in that range (`steps[1:]`), else a value of `inner`'s type.
    Slice { base: Box<Receiver>, from: Option<i64>, to: Option<i64> },
    /// `inner[key]`: an element of a container (Python), `xs[0].m()`, `graph[id].m()`.
    Subscript(Box<Receiver>),
    /// A tuple expression (Rust): `(self, parent, false)`, each element a receiver (`Other`
    /// where not visible), so that `let (a, b) = (x.f(), y);` and tuples returned by the
    /// branches of a `match` are typed element by element.
    Tuple(Vec<Receiver>),
    /// Fields read on a value that is not a name (Rust): `x.f()?.value.m()` gives the fields
    /// `["value"]` of `x.f()?`, `self.store[id].name.m()` the field `name` of `self.store[id]`.
    Fields { base: Box<Receiver>, fields: Vec<String> },
    /// Anything else (indexing, literals, parenthesized expressions…).
    Other,
}

/// How an import statement is written, which decides what name it binds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ImportStyle {
    /// Python `import a.b` (binds `a`) or `import a.b as c` (binds `c` to `a.b`).
    PythonImport,
    /// Python `from a.b import c [as d]`, with `relative_level` leading dots.
    PythonFrom,
    /// Rust `use a::b::c [as d];`, one fact per leaf of a use tree.
    RustUse,
}

/// One imported name (a Rust use tree or a Python multi-name import gives several).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Import {
    /// The module (or function, for an import inside a function) the import is visible in.
    pub scope: SymbolId,
    pub style: ImportStyle,
    /// Python: leading dots of a relative `from` import. Rust: always 0 (`crate`, `self`,
    /// `super` stay as segments of `path`).
    pub relative_level: u32,
    /// The full imported path. `from a import b` gives `["a", "b"]`; `from . import m` gives
    /// `["m"]` with level 1; `from a import *` gives `["a"]` with `is_glob`.
    pub path: Vec<String>,
    /// The name this import binds in `scope`; `None` for globs.
    pub alias: Option<String>,
    pub is_glob: bool,
    /// Rust `pub use` (a re-export). Python imports are always visible to importers.
    pub is_public: bool,
    pub line: u32,
    /// Where the import takes effect in its scope: a Python import from its statement's end;
    /// 0 for a Rust `use`, in force in its whole scope.
    pub visible_from: u32,
    /// The conditional branch a Python import sits in (`try: from a import f` / `except
    /// ImportError: from b import f` are alternatives).
    pub branch: Branch,
}

/// The bytes of the innermost conditional branch a binding or import sits in within its scope:
/// a Python `if`/`elif`/`else` arm, a loop body or its `else`, a `try` body or handler, a
/// `match` case. A use outside them may still see an earlier binding of the name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Branch {
    pub from: u32,
    pub to: u32,
}

impl Branch {
    /// Not in a branch: runs whenever its scope does (a `finally` or `with` body too).
    pub const ALWAYS: Branch = Branch { from: 0, to: u32::MAX };

    /// Whether what sits in the branch has run at every use at byte `at` it reaches: the
    /// branch always runs, or `at` is inside it.
    pub fn runs_before(self, at: u32) -> bool {
        self == Branch::ALWAYS || (self.from <= at && at < self.to)
    }
}

/// A class base (`class C(Base)`) or a Rust trait's supertrait (`trait A: B`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SupertypeRef {
    pub subtype: SymbolId,
    pub path: Vec<String>,
    pub line: u32,
}

/// A Rust `impl` block: the type it is for and, for trait impls, the trait.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ImplBlock {
    pub impl_symbol: SymbolId,
    /// The self type's path with generic arguments and references dropped (`a::Type`).
    pub self_type: Vec<String>,
    pub trait_path: Option<Vec<String>>,
    /// For a blanket impl, whose self type is a generic parameter of the impl, that
    /// parameter's first bound: `impl<R: AsyncRead + ?Sized> AsyncReadExt for R` gives
    /// `AsyncRead` (`Some(vec![])` for an unbounded one). `None` for other impls.
    pub blanket_bound: Option<Vec<String>>,
    pub line: u32,
}

/// A Rust type's `#[derive(…)]`: the traits' last path segments (`PartialEq`, `Debug`), and
/// every type path its fields' types name, generic arguments included (`items: Vec<Item>`
/// gives `Vec` and `Item`; an enum's variants' fields count).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DerivedTraits {
    pub type_symbol: SymbolId,
    pub traits: Vec<String>,
    pub field_types: Vec<Vec<String>>,
}

/// A name whose type is visible in a scope: a typed parameter, an annotated or constructed
/// variable, or an attribute assigned in a method (`self.h = Helper()`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Binding {
    /// The function (or module, or class for attributes) the name is visible in.
    pub scope: SymbolId,
    /// `x`, or `self.h` for attributes (segments joined by `.`).
    pub name: String,
    pub value: BindingValue,
    pub line: u32,
    /// The bytes where the binding is in force, `visible_from` excluded: a `let` from its end
    /// to its block's end, a closure parameter in its closure, a `match` arm's pattern in the
    /// arm. `0..u32::MAX` for bindings in force in their whole scope (fields, return types).
    pub visible_from: u32,
    pub visible_to: u32,
    /// The innermost conditional branch the binding sits in within its scope.
    pub branch: Branch,
}

impl Binding {
    /// The name under which a function keeps its parameter at `position` whose type is
    /// `Callable` (a method's `self` is position 0), so a closure passed there is typed.
    pub fn callback_name(position: u32) -> String {
        format!("callback#{position}")
    }

    /// A binding in force in its whole scope.
    pub fn everywhere(scope: SymbolId, name: String, value: BindingValue, line: u32) -> Binding {
        Binding {
            scope,
            name,
            value,
            line,
            visible_from: 0,
            visible_to: u32::MAX,
            branch: Branch::ALWAYS,
        }
    }

    /// A binding in force from a byte of its scope to the scope's end.
    pub fn from_byte(
        scope: SymbolId,
        name: String,
        value: BindingValue,
        line: u32,
        visible_from: u32,
    ) -> Binding {
        Binding {
            scope,
            name,
            value,
            line,
            visible_from,
            visible_to: u32::MAX,
            branch: Branch::ALWAYS,
        }
    }
}

/// What a binding's type is known from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum BindingValue {
    /// An annotation or parameter type: `x: Type`, `x: &mut a::Type`, `x: Box<dyn Trait>`.
    /// `is_dyn` marks `dyn Trait`, `impl Trait` and generic `T: Trait` bounds. `arguments`
    /// are the generic arguments in order, each a `Type` or `Unknown` (`Option<ast::Name>`
    /// gives `[ast::Name]`; `impl Iterator<Item = T>` gives `[T]`; a slice `[T]` has the
    /// path `[]`).
    Type { path: Vec<String>, is_dyn: bool, arguments: Vec<BindingValue> },
    /// The result of a call: `x = C()`, `let x = Type::new()`.
    CallResult(CalleeExpr),
    /// What a Python `with f(…) as x` binds: the value the context manager's `__enter__`
    /// returns, or what a `@contextmanager` generator yields.
    EnteredContext(CalleeExpr),
    /// The value of an expression that is not a call: `let x = y.field;`, `let x = y?;`, and
    /// `if let Some(x) = y` (as `y?`).
    Expression(Receiver),
    /// An element of what an expression yields when iterated: `for x in xs`.
    ElementOf(Receiver),
    /// A closure's parameter, when the closure is an argument of a method call:
    /// `receiver.map(|x| …)` gives method `map`, argument 0, parameter 0; `acc.add(id, |b| …)`
    /// gives method `add`, argument 1 (its position among the call's arguments), parameter 0.
    ClosureParameter { receiver: Receiver, method: String, argument: u32, parameter: u32 },
    /// A closure's parameter, when the closure is an argument of a call of a path:
    /// `with_builder(x, |b| …)` gives the path `with_builder`, argument 1, parameter 0.
    PathCallClosureParameter { function: Vec<String>, argument: u32, parameter: u32 },
    /// A type of the `Fn` traits or a function pointer: `impl FnOnce(&mut Builder)`, `&dyn
    /// Fn(A, B) -> R`, `fn(A)`, and a generic `F` bound by one (`F: FnMut(&T)`, also in a
    /// where clause). `parameters` are the types its callers pass, in order (`Unknown` where a
    /// type is not understood): a closure passed for it receives them.
    Callable { parameters: Vec<BindingValue> },
    /// A field of a tuple variant or tuple struct, bound by a pattern: `ast::Expr::Call(x)`
    /// gives the variant's path and position 0.
    VariantField { variant: Vec<String>, position: u32 },
    /// A named field of a struct or of a struct-like variant, bound by a struct pattern:
    /// `let Foo { a, b: x, .. } = …` gives `Foo` and `a` (and `b`); `Expr::Field { expr, ..
    /// }` gives the variant's path and `expr`.
    NamedField { owner: Vec<String>, field: String },
    /// One element of a tuple value bound by a tuple pattern: `let (a, b) = f();`,
    /// `for (i, x) in xs.iter().enumerate()`, `|(key, value)| …`.
    TupleElement { of: Box<BindingValue>, position: u32 },
    /// A list, tuple or set literal whose elements are names (`steps = [fetch, build]`; a
    /// Rust `const OPS: [fn(u32); 2] = [a, b]`). Calling `steps[i]()` may call any of them.
    Collection(Vec<Vec<String>>),
    /// An element of a literal list, tuple or set of names iterated where it is written:
    /// `for step in [fetch, build]: step()` calls each of them.
    LiteralElement(Vec<Vec<String>>),
    /// A dict literal whose values are names: `handlers = {"a": on_a, "b": on_b}`. Calling
    /// `handlers[k]()` or a value of `handlers.values()` may call any of them.
    Mapping(Vec<Vec<String>>),
    /// A Python parameter without an annotation: its value comes from the caller, or, for a
    /// pytest test or fixture, from the fixture function of the same name.
    UntypedParameter,
    /// The branches of an `if` or `match` (`let x = if c { a } else { b.f() };`), which all
    /// have one type: each branch's tail value, read at its byte (where the branch's own
    /// bindings are in force), in source order.
    BranchValues { values: Vec<(Receiver, u32)> },
    /// A local closure (`let m = |path| matcher.matched(path);`): what calling it returns, read
    /// at byte `at` inside the closure, where its parameters are in force.
    Closure { returned: Receiver, at: u32 },
    /// A function's own generic parameter, by position among its type parameters, in its
    /// declared return type (`fn find<N: AstNode>() -> Option<N>` returns `Option<#0>`): the
    /// caller's type, visible when the call writes it (`find::<ast::Fn>()`).
    GenericParameter { position: u32 },
    /// A generic parameter of the struct around a field, or of the impl around a method's
    /// return type, by its position among the Self type's generic arguments (`struct
    /// InFile<T> { value: T }` and `impl<T> InFile<T> { fn as_ref(&self) -> InFile<&T> }` give
    /// `#0`): an instance's written arguments fill it in (`InFile<ast::Fn>`). `bound` is a
    /// field parameter's first trait bound, its type when the arguments are not known.
    SelfTypeArgument { position: u32, bound: Option<Vec<String>> },
    /// A local or parameter whose type is not visible (`def f(app)`, `|it|`, `let x = y;`).
    /// Knowing that the name is local keeps it from being mistaken for a global.
    Unknown,
}

impl BindingValue {
    /// A type written by name, without generic arguments: `Vec`, `a::Type`.
    pub fn named_type(path: Vec<String>) -> BindingValue {
        BindingValue::Type { path, is_dyn: false, arguments: Vec::new() }
    }

    /// Whether this value, or a generic argument of it at any depth, satisfies `part`.
    pub fn has_part(&self, part: &impl Fn(&BindingValue) -> bool) -> bool {
        part(self)
            || matches!(self, BindingValue::Type { arguments, .. } if arguments.iter().any(|argument| argument.has_part(part)))
    }
}
