; Python tag query for tether. Capture names: see crates/extract/src/query.rs.
; Definitions nest by byte range; a function inside a class becomes a method.

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(lambda) @definition.lambda
; `if __name__ == "__main__":` (the extractor keeps only that one, at module level): a script's
; entry, a function named `__main__`, whose calls do not run on import.
(if_statement) @definition.script

; Every call, whatever its callee; the extractor keeps the callee's structure.
(call) @reference.call

; `@decorator` without arguments calls the decorator; `@decorator(args)` is a call above.
(decorator (identifier) @reference.call)
(decorator (attribute) @reference.call)

(import_statement) @reference.import
(import_from_statement) @reference.import

; Base classes; keyword arguments such as `metaclass=M` are filtered by the extractor.
(class_definition
  superclasses: (argument_list (_) @reference.inherits))

; Names whose type is visible: `x = C()`, `x: T = ...`, `self.h = H()`, typed parameters.
; Lists are captured whole (one-node patterns keep the query cheap); the extractor lowers
; their parameters and targets.
(assignment) @local.definition
(parameters) @local.definition
(for_statement) @local.definition
(for_in_clause) @local.definition
(with_item) @local.definition
; `(h := pick(text))`: a walrus binds `h` from there on.
(named_expression) @local.definition
; `if isinstance(x, Foo):` and `assert isinstance(x, Foo)` narrow `x`.
(if_statement condition: (call)) @local.definition
(elif_clause condition: (call)) @local.definition
(assert_statement (call)) @local.definition
; What a function returns or yields, when it has no return annotation.
(return_statement) @local.definition
(yield) @local.definition

; Names used as values: every name or dotted name is captured, and the extractor keeps those
; whose value is handed on (`register(handler)`, `self.cb = cb`, `return inner`, `lambda: f`).
; It leaves out, by their position, the names consumed on the spot: callees, definitions,
; imports, targets, annotations, conditions, comparisons (python_value_references.rs), so a
; position nobody wrote a rule for counts as an escape.
(identifier) @reference.value
(attribute) @reference.value

; Methods the language calls for a construct with no call expression: `with x:` calls
; `x.__enter__()` and `x.__exit__()`, `for _ in x` `x.__iter__()`, `a == b` `a.__eq__(b)`,
; `x[k]` `x.__getitem__(k)`, an f-string's `{x}` `x.__format__()` (see python_implicit_calls.rs).
(with_item) @reference.protocol
(for_statement) @reference.protocol
(for_in_clause) @reference.protocol
(comparison_operator) @reference.protocol
(binary_operator) @reference.protocol
(augmented_assignment) @reference.protocol
(unary_operator) @reference.protocol
; Truth tests call `__bool__` (or `__len__`): conditions, `assert`, `not`, `and`/`or`.
(if_statement) @reference.protocol
(elif_clause) @reference.protocol
(while_statement) @reference.protocol
(conditional_expression) @reference.protocol
(assert_statement) @reference.protocol
(if_clause) @reference.protocol
(not_operator) @reference.protocol
(boolean_operator) @reference.protocol
; Unpacking iterates: `a, b = x`, `f(*x)`, `yield from x`; `f(**x)` reads keys and items.
(assignment) @reference.protocol
(list_splat) @reference.protocol
(dictionary_splat) @reference.protocol
(yield) @reference.protocol
(subscript) @reference.protocol
(interpolation) @reference.protocol
; `raise C` instantiates the class it names: it calls `C()`.
(raise_statement) @reference.protocol
; Attribute reads: a property's getter runs with no call expression (`request.blueprint`).
; The extractor leaves out callees, assignment targets and decorators.
(attribute) @reference.attribute
