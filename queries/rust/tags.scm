; Rust tag query for tether. Capture names: see crates/extract/src/query.rs.
; Definitions nest by byte range; a function directly inside an impl or a trait becomes a
; method. Closures are not definitions: their calls belong to the enclosing function.

; Only inline modules are symbols; `mod x;` names another file.
(mod_item
  name: (identifier) @name
  body: (declaration_list)) @definition.module

(struct_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(union_item
  name: (type_identifier) @name) @definition.union

(trait_item
  name: (type_identifier) @name) @definition.trait

; The extractor names impls `{impl Type}` / `{impl Trait for Type}` from their fields.
(impl_item) @definition.impl

(function_item
  name: (identifier) @name) @definition.function

; Trait method signatures without a body.
(function_signature_item
  name: (identifier) @name) @definition.function

(macro_definition
  name: (identifier) @name) @definition.macro

; `type Name = Type;`, also an impl's associated type.
(type_item
  name: (type_identifier) @name) @definition.type

; Every call and macro invocation, whatever its callee; the extractor keeps its structure.
(call_expression) @reference.call
(macro_invocation) @reference.call

(use_declaration) @reference.import
(extern_crate_declaration) @reference.import

; Supertraits: `trait A: B + C`, and `where Self: B` on the trait itself. Lifetimes and
; `?Sized` are filtered by the extractor.
(trait_item
  bounds: (trait_bounds (_) @reference.inherits))
(trait_item
  (where_clause (where_predicate) @reference.inherits))

; Names whose type is visible: `let` statements, function and closure parameters, struct fields.
; A block ends the reach of the `let`s in it.
(block) @local.scope

; Lists are captured whole (one-node patterns keep the query cheap); the extractor lowers
; their parameters and identifiers.
(let_declaration) @local.definition
(parameters) @local.definition
(field_declaration) @local.definition
(closure_parameters) @local.definition
(for_expression) @local.definition
; `Some(x)`, `Ok(x)` and `Variant(x)` in `let`, `if let` and `match`. (Enum variants and
; tuple fields are read from their definitions.)
(tuple_struct_pattern) @local.definition
; `Foo { a, b: x }` and `Enum::Variant { a, .. }`: each field's binding.
(struct_pattern) @local.definition
; `static ONCE: OnceCell<u32>`, `const ALL: &[Kind]` (also associated consts of an impl).
(const_item) @local.definition
(static_item) @local.definition

; Values a function may escape through: a call's arguments (`xs.map(Self::convert)`), a
; `let`, a struct field (`Handler { run: on_event }`), an assignment, a return, a static or
; const. The extractor keeps the paths among them; closures and calls are not paths.
(arguments) @reference.value
(let_declaration) @reference.value
(field_initializer) @reference.value
(assignment_expression) @reference.value
(return_expression) @reference.value
(static_item) @reference.value
(const_item) @reference.value
; Operators and loops that call trait methods with no call expression: `a == b` calls
; `PartialEq::eq`, `a + b` `Add::add`, `a[i]` `Index::index`, `for x in v` `into_iter`/`next`,
; `x?` `From::from` into the function's error type, `*x` `Deref::deref` (see
; rust/implicit_calls.rs).
(binary_expression) @reference.protocol
(unary_expression) @reference.protocol
(try_expression) @reference.protocol
(index_expression) @reference.protocol
(for_expression) @reference.protocol
