//! Snapshot tests of Rust extraction: one source file in, its rendered facts out.

use expect_test::{expect, Expect};
use tether_model::{FileFacts, Language};

use crate::{extract, render_facts, SourceFile};

fn extract_rust(text: &str) -> FileFacts {
    extract(&SourceFile {
        path: "src/m.rs",
        language: Language::Rust,
        module_name: "my_crate::m",
        text,
    })
}

fn check(text: &str, expected: Expect) {
    expected.assert_eq(&render_facts(&extract_rust(text)));
}

#[test]
fn modules_types_traits_and_macros() {
    check(
        r#"
mod declared_elsewhere;

pub mod inner {
    pub struct Point { x: i32 }
    enum Shape { Circle, Square { side: Side } }
    union Bits { int: u32, float: f32 }
    pub trait Area {
        fn area(&self) -> f64;
        fn double(&self) -> f64 { self.area() * 2.0 }
    }
    mod deeper {
        fn helper() {}
    }
}

macro_rules! square {
    ($x:expr) => { $x * $x };
}

fn uses_macros() {
    let n = square!(3);
    println!("{}", n);
    std::assert_eq!(n, 9);
}
"#,
        expect![[r#"
            module my_crate::m 1-26
              module my_crate::m::inner 4-15
                struct my_crate::m::inner::Point 5-5
                enum my_crate::m::inner::Shape 6-6
                union my_crate::m::inner::Bits 7-7
                trait my_crate::m::inner::Area 8-11
                  method my_crate::m::inner::Area::area 9-9
                  method my_crate::m::inner::Area::double 10-10
                module my_crate::m::inner::deeper 12-14
                  function my_crate::m::inner::deeper::helper 13-13
              macro my_crate::m::square 17-19
              function my_crate::m::uses_macros 21-25
            call my_crate::m::inner::Area::double -> self.area @10
            call my_crate::m::uses_macros -> square! @22
            call my_crate::m::uses_macros -> println! @23
            call my_crate::m::uses_macros -> std::assert_eq! @24
            binding my_crate::m::inner::Point self.x: i32 @5
            binding my_crate::m::inner::Shape Circle: ? @6
            binding my_crate::m::inner::Shape Square: ? @6
            binding my_crate::m::inner::Shape Square.side: Side @6
            binding my_crate::m::inner::Bits self.int: u32 @7
            binding my_crate::m::inner::Bits self.float: f32 @7
            binding my_crate::m::inner::Area::area return: f64 @9
            binding my_crate::m::inner::Area::double return: f64 @10
            binding my_crate::m::uses_macros n: ? @22
        "#]],
    );
}

#[test]
fn inherent_trait_and_generic_impls_name_their_methods() {
    check(
        r#"
use std::fmt;

pub struct Wrapper<T> { inner: T }

impl<T> Wrapper<T> {
    pub fn new(inner: T) -> Self { Self { inner } }
    fn get(&self) -> &T { &self.inner }
}

impl<T: fmt::Debug> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

impl<'a> From<&'a str> for &'a mut a::Vec<u8> {
    fn from(text: &'a str) -> Self { Self::new() }
}

impl dyn Shape {}
impl Marker for (u8, u16) {}
"#,
        expect![[r#"
            module my_crate::m 1-23
              struct my_crate::m::Wrapper 4-4
              impl my_crate::m::{impl Wrapper} 6-9
                method my_crate::m::Wrapper::new 7-7
                method my_crate::m::Wrapper::get 8-8
              impl my_crate::m::{impl Display for Wrapper} 11-15
                method my_crate::m::{impl Display for Wrapper}::fmt 12-14
              impl my_crate::m::{impl From for &mut Vec} 17-19
                method my_crate::m::{impl From for &mut Vec}::from 18-18
              impl my_crate::m::{impl Shape} 21-21
              impl my_crate::m::{impl Marker for (u8, u16)} 22-22
            call my_crate::m::{impl Display for Wrapper}::fmt -> write! @13
            call my_crate::m::{impl Display for Wrapper}::fmt -> self.get @13
            call my_crate::m::{impl From for &mut Vec}::from -> Self::new @18
            use my_crate::m <- std::fmt as fmt @2
            impl my_crate::m::{impl Wrapper} type=Wrapper @6
            impl my_crate::m::{impl Display for Wrapper} type=Wrapper trait=fmt::Display @11
            impl my_crate::m::{impl From for &mut Vec} type=a::Vec trait=From @17
            impl my_crate::m::{impl Shape} type=Shape @21
            binding my_crate::m::Wrapper self.inner: Self#0 @4
            binding my_crate::m::Wrapper::new return: Self @7
            binding my_crate::m::Wrapper::get @private: ? @8
            binding my_crate::m::Wrapper::get return: Self#0 @8
            binding my_crate::m::{impl Display for Wrapper} <T>: dyn fmt::Debug @11
            binding my_crate::m::{impl Display for Wrapper}::fmt return: fmt::Result @12
            binding my_crate::m::{impl Display for Wrapper}::fmt f: fmt::Formatter @12
            binding my_crate::m::{impl From for &mut Vec}::from return: Self @18
            binding my_crate::m::{impl From for &mut Vec}::from text: str @18
        "#]],
    );
}

#[test]
fn nested_functions_and_closures() {
    check(
        r#"
fn outer(values: Vec<u32>) -> u32 {
    fn inner(x: u32) -> u32 { double(x) }
    let add = |a: u32| inner(a) + offset();
    values.iter().map(|v| add(*v)).sum()
}

struct S;
impl S {
    fn method(&self) {
        fn local() { helper(); }
        local();
    }
}
"#,
        expect![[r#"
            module my_crate::m 1-15
              function my_crate::m::outer 2-6
                function my_crate::m::outer::inner 3-3
              struct my_crate::m::S 8-8
              impl my_crate::m::{impl S} 9-14
                method my_crate::m::S::method 10-13
                  function my_crate::m::S::method::local 11-11
            call my_crate::m::outer::inner -> double @3
            call my_crate::m::outer -> inner @4
            call my_crate::m::outer -> offset @4
            call my_crate::m::outer -> ((values.iter()).map(=> (add()))).sum @5
            call my_crate::m::outer -> (values.iter()).map @5
            call my_crate::m::outer -> values.iter @5
            call my_crate::m::outer -> add @5
            call my_crate::m::S::method::local -> helper @11
            call my_crate::m::S::method -> local @12
            value my_crate::m::outer::inner -> x @3
            value my_crate::m::outer -> a @4
            impl my_crate::m::{impl S} type=S @9
            binding my_crate::m::outer return: u32 @2
            binding my_crate::m::outer values: Vec<u32> @2
            binding my_crate::m::outer::inner return: u32 @3
            binding my_crate::m::outer::inner x: u32 @3
            binding my_crate::m::outer add: ? @4
            binding my_crate::m::outer a: u32 @4
            binding my_crate::m::outer v: closure parameter 0 of (values.iter()).map @5
            binding my_crate::m::S::method @private: ? @10
        "#]],
    );
}

#[test]
fn test_functions_and_cfg_test_modules() {
    check(
        r#"
fn production() {}

#[test]
fn plain_test() { production(); }

#[tokio::test]
/// A doc comment between the attribute and the item.
async fn async_test() {}

#[inline]
fn not_a_test() {}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() {}

    #[test]
    fn uses_helper() { helper(); }
}

#[cfg(not(test))]
mod not_tests {}

#[cfg(test)]
fn test_only_helper() {}
"#,
        expect![[r#"
            module my_crate::m 1-29
              function my_crate::m::production 2-2
              function my_crate::m::plain_test 5-5 test
              function my_crate::m::async_test 9-9 test
              function my_crate::m::not_a_test 12-12
              module my_crate::m::tests 15-22 test
                function my_crate::m::tests::helper 18-18 test
                function my_crate::m::tests::uses_helper 21-21 test
              module my_crate::m::not_tests 25-25
              function my_crate::m::test_only_helper 28-28 test
            call my_crate::m::plain_test -> production @5
            call my_crate::m::tests::uses_helper -> helper @21
            use my_crate::m::tests <- super::* @16
        "#]],
    );
}

#[test]
fn every_use_tree_form() {
    check(
        r#"
use a::b;
use a::b::{c, d as e, f::*, self};
pub use crate::x::Y;
pub(crate) use super::super::z;
use self::sibling::{nested::{deep, other as o}, *};
use ::std::fmt::Display;
use Trait as _;
extern crate alloc;
pub extern crate core as my_core;

fn scoped() {
    use std::collections::HashMap;
}
"#,
        expect![[r#"
            module my_crate::m 1-15
              function my_crate::m::scoped 12-14
            use my_crate::m <- a::b as b @2
            use my_crate::m <- a::b::c as c @3
            use my_crate::m <- a::b::d as e @3
            use my_crate::m <- a::b::f::* @3
            use my_crate::m <- a::b as b @3
            use pub my_crate::m <- crate::x::Y as Y @4
            use pub my_crate::m <- super::super::z as z @5
            use my_crate::m <- self::sibling::nested::deep as deep @6
            use my_crate::m <- self::sibling::nested::other as o @6
            use my_crate::m <- self::sibling::* @6
            use my_crate::m <- std::fmt::Display as Display @7
            use my_crate::m <- Trait as _ @8
            use my_crate::m <- alloc as alloc @9
            use pub my_crate::m <- core as my_core @10
            use my_crate::m::scoped <- std::collections::HashMap as HashMap @13
        "#]],
    );
}

#[test]
fn supertraits_skip_lifetimes_and_maybe_sized() {
    check(
        r#"
trait A: B + fmt::Debug + ?Sized + 'static + for<'a> Visit<'a> {}
trait C where Self: D + Send {
    fn f() where Self: Sized;
}
trait Plain {}
"#,
        expect![[r#"
            module my_crate::m 1-7
              trait my_crate::m::A 2-2
              trait my_crate::m::C 3-5
                method my_crate::m::C::f 4-4
              trait my_crate::m::Plain 6-6
            supertype my_crate::m::A : B @2
            supertype my_crate::m::A : fmt::Debug @2
            supertype my_crate::m::A : Visit @2
            supertype my_crate::m::C : D @3
            supertype my_crate::m::C : Send @3
        "#]],
    );
}

#[test]
fn bindings_from_lets_parameters_generics_and_fields() {
    check(
        r#"
struct Service<S: Store> {
    helper: Helper,
    shared: Arc<dyn Cache>,
    store: S,
}

fn run<T: Runner + Send, U, W>(
    x: Type,
    r: &Type,
    m: &mut a::Type<G>,
    d: &dyn Trait,
    b: Box<dyn Trait + Send>,
    arc: Arc<dyn Trait>,
    i: impl Trait,
    t: T,
    u: U,
    w: W,
    (p, q): (P, Q),
) where W: Walker {
    let made = Type::new(1);
    let called = f();
    let annotated: a::Type = g();
    let literal = Point { x: 1 };
    let generic = Vec::<u8>::with_capacity(3);
    let chained = Type::new().build();
    let (left, right) = pair();
    let mut mutable = h();
    let plain = 3;
    let closure = |z: Zed| z.go();
}

impl<K: Key> Holder<K> {
    fn with(&self, key: K) {}
}

trait Visitor {
    fn visit(&mut self, node: &Node);
}
"#,
        expect![[r#"
            module my_crate::m 1-40
              struct my_crate::m::Service 2-6
              function my_crate::m::run 8-31
              impl my_crate::m::{impl Holder} 33-35
                method my_crate::m::Holder::with 34-34
              trait my_crate::m::Visitor 37-39
                method my_crate::m::Visitor::visit 38-38
            call my_crate::m::run -> Type::new @21
            call my_crate::m::run -> f @22
            call my_crate::m::run -> g @23
            call my_crate::m::run -> Vec::with_capacity @25
            call my_crate::m::run -> (Type::new()).build @26
            call my_crate::m::run -> Type::new @26
            call my_crate::m::run -> pair @27
            call my_crate::m::run -> h @28
            call my_crate::m::run -> z.go @30
            impl my_crate::m::{impl Holder} type=Holder @33
            binding my_crate::m::Service self.helper: Helper @3
            binding my_crate::m::Service self.shared: Arc<dyn Cache> @4
            binding my_crate::m::Service self.store: Self#0 or dyn Store @5
            binding my_crate::m::run <T>: dyn Runner @8
            binding my_crate::m::run <W>: dyn Walker @8
            binding my_crate::m::run x: Type @9
            binding my_crate::m::run r: Type @10
            binding my_crate::m::run m: a::Type<G> @11
            binding my_crate::m::run d: dyn Trait @12
            binding my_crate::m::run b: Box<dyn Trait> @13
            binding my_crate::m::run arc: Arc<dyn Trait> @14
            binding my_crate::m::run i: dyn Trait @15
            binding my_crate::m::run t: dyn Runner @16
            binding my_crate::m::run w: dyn Walker @18
            binding my_crate::m::run made: call Type::new @21
            binding my_crate::m::run called: call f @22
            binding my_crate::m::run annotated: a::Type @23
            binding my_crate::m::run literal: Point @24
            binding my_crate::m::run generic: call Vec::with_capacity @25
            binding my_crate::m::run chained: call (Type::new()).build @26
            binding my_crate::m::run left: element 0 of call pair @27
            binding my_crate::m::run right: element 1 of call pair @27
            binding my_crate::m::run mutable: call h @28
            binding my_crate::m::run plain: i32 @29
            binding my_crate::m::run closure: closure returning (z.go()) @30
            binding my_crate::m::run z: Zed @30
            binding my_crate::m::{impl Holder} <K>: dyn Key @33
            binding my_crate::m::Holder::with @private: ? @34
            binding my_crate::m::Holder::with key: dyn Key @34
            binding my_crate::m::Visitor::visit node: Node @38
        "#]],
    );
}

#[test]
fn every_callee_form() {
    check(
        r#"
impl Widget {
    fn run(&self, x: Thing) {
        f();
        a::b::f();
        Type::new();
        Self::new();
        crate::x::f();
        super::f();
        Vec::<u8>::new();
        f::<T>();
        self.m();
        x.m();
        self.h.m();
        self.h.deep.m();
        Type::new().m();
        make().then().m();
        x.collect::<Vec<_>>();
        values[0].m();
        (x).m();
        <T as Trait>::f();
        f()();
        name!(a, b);
        a::name!();
        x.0();
    }
}
"#,
        expect![[r#"
            module my_crate::m 1-28
              impl my_crate::m::{impl Widget} 2-27
                method my_crate::m::Widget::run 3-26
            call my_crate::m::Widget::run -> f @4
            call my_crate::m::Widget::run -> a::b::f @5
            call my_crate::m::Widget::run -> Type::new @6
            call my_crate::m::Widget::run -> Self::new @7
            call my_crate::m::Widget::run -> crate::x::f @8
            call my_crate::m::Widget::run -> super::f @9
            call my_crate::m::Widget::run -> Vec::new @10
            call my_crate::m::Widget::run -> f @11
            call my_crate::m::Widget::run -> self.m @12
            call my_crate::m::Widget::run -> x.m @13
            call my_crate::m::Widget::run -> self.h.m @14
            call my_crate::m::Widget::run -> self.h.deep.m @15
            call my_crate::m::Widget::run -> (Type::new()).m @16
            call my_crate::m::Widget::run -> Type::new @16
            call my_crate::m::Widget::run -> ((make()).then()).m @17
            call my_crate::m::Widget::run -> (make()).then @17
            call my_crate::m::Widget::run -> make @17
            call my_crate::m::Widget::run -> x.collect @18
            call my_crate::m::Widget::run -> values[…].m @19
            call my_crate::m::Widget::run -> x.m @20
            call my_crate::m::Widget::run -> <T as Trait>::f @21
            call my_crate::m::Widget::run -> f() @22
            call my_crate::m::Widget::run -> f @22
            call my_crate::m::Widget::run -> name! @23
            call my_crate::m::Widget::run -> a::name! @24
            call my_crate::m::Widget::run -> x.0 @25
            impl my_crate::m::{impl Widget} type=Widget @2
            binding my_crate::m::Widget::run @private: ? @3
            binding my_crate::m::Widget::run x: Thing @3
        "#]],
    );
}

#[test]
fn facts_outside_a_syntax_error_survive() {
    check(
        r#"
use std::io;

fn before() { io::stdout(); }

fn broken( {
    let x = ;
}

struct After { h: Helper }

fn after() { before(); }
"#,
        expect![[r#"
            module my_crate::m 1-13
              function my_crate::m::before 4-4
              function my_crate::m::broken 6-8
              struct my_crate::m::After 10-10
              function my_crate::m::after 12-12
            call my_crate::m::before -> io::stdout @4
            call my_crate::m::after -> before @12
            use my_crate::m <- std::io as io @2
            binding my_crate::m::After self.h: Helper @10
            diagnostic src/m.rs:6: syntax_error: missing `)`; facts outside the error region are kept
            diagnostic src/m.rs:7: syntax_error: syntax error; facts outside the error region are kept
        "#]],
    );
}

#[test]
fn garbage_input_never_panics() {
    let samples = [
        "",
        "}}}}{{{{",
        "fn",
        "impl",
        "impl for {}",
        "impl<T> for X<T {",
        "use ::{;",
        "use a::{b::{c::{",
        "trait : {}",
        "fn f(x: &&&&dyn) { let = ; }",
        "#[test] #[cfg(test)]",
        "macro_rules! { }",
        "mod m { fn a() { b(c(d(e(",
        "struct S { a: , b: Box<dyn> }",
        "let x = y.z.();",
        "\u{0}\u{1}\u{7f}é漢字🙂 fn ü() {}",
    ];
    for sample in samples {
        let _ = extract_rust(sample);
    }
    let deep_nesting = format!("fn f() {{ {}x{} }}", "a(".repeat(2000), ")".repeat(2000));
    let _ = extract_rust(&deep_nesting);
    let deep_chain = format!("fn f() {{ x{}; }}", ".m()".repeat(2000));
    let _ = extract_rust(&deep_chain);
    let deep_use = format!("use {}x{};", "a::{".repeat(500), "}".repeat(500));
    let _ = extract_rust(&deep_use);
    let deep_type = format!("fn f(x: {}T{}) {{}}", "&".repeat(500), "");
    let _ = extract_rust(&deep_type);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut bytes = Vec::new();
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let alphabet = b"fn impl trait struct use mod :: { } ( ) < > & ' ; , . ! # [ ] a b Self self dyn as * = let for where test cfg \n";
            bytes.push(alphabet[(state % alphabet.len() as u64) as usize]);
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let _ = extract_rust(&text);
    }
}

#[test]
fn calls_inside_macro_arguments_are_seen() {
    check(
        r#"
fn checks() {
    assert_eq!(add(1, 2), 3);
    println!("{} {}", self.total(), crate::util::scale(x.len()));
    vec![make(), inner!(deep())];
    matches!(value, Some(_));
}
"#,
        expect![[r#"
            module my_crate::m 1-8
              function my_crate::m::checks 2-7
            call my_crate::m::checks -> assert_eq! @3
            call my_crate::m::checks -> add @3
            call my_crate::m::checks -> println! @4
            call my_crate::m::checks -> self.total @4
            call my_crate::m::checks -> crate::util::scale @4
            call my_crate::m::checks -> x.len @4
            call my_crate::m::checks -> vec! @5
            call my_crate::m::checks -> make @5
            call my_crate::m::checks -> inner! @5
            call my_crate::m::checks -> deep @5
            call my_crate::m::checks -> matches! @6
        "#]],
    );
}

#[test]
fn a_function_returning_a_fn_pointer_names_its_tails() {
    check(
        r#"
pub fn pick(verbose: bool) -> fn(&str) -> u32 {
    if verbose { log_full } else { log_short }
}
pub fn make() -> impl Fn(u32) -> u32 {
    if true { return double; }
    match 1 { 0 => triple, _ => m::quad }
}
pub fn plain() -> u32 { other }
"#,
        expect![[r#"
            module my_crate::m 1-10
              function my_crate::m::pick 2-4
              function my_crate::m::make 5-8
              function my_crate::m::plain 9-9
            value my_crate::m::make -> double @6
            binding my_crate::m::pick return: callable(str) @2
            binding my_crate::m::pick return: value log_full @3
            binding my_crate::m::pick return: value log_short @3
            binding my_crate::m::pick verbose: bool @2
            binding my_crate::m::make return: callable(u32) @5
            binding my_crate::m::make return: value triple @7
            binding my_crate::m::make return: value m.quad @7
            binding my_crate::m::make return: value double @6
            binding my_crate::m::plain return: u32 @9
        "#]],
    );
}

/// A `macro_rules!` of the file invoked in item position is expanded there: the impl and the
/// test module it writes are symbols at the lines of its body, named by what the invocation
/// passes; an invocation of a rule with repetitions is not expanded.
#[test]
fn item_macros_of_the_file_are_expanded_per_invocation() {
    check(
        r#"pub trait Parity { fn is_even(&self) -> bool; }

macro_rules! impl_parity {
    ($T:ty, $test_mod:ident) => {
        impl Parity for $T {
            fn is_even(&self) -> bool { *self % 2 == 0 }
        }
        #[cfg(test)]
        mod $test_mod {
            #[test]
            fn test_even() { assert!((2 as $T).is_even()); }
        }
    };
}

macro_rules! repeated {
    ($($name:ident),*) => { $(mod $name { #[test] fn t() {} })* };
}

impl_parity!(i8, test_parity_i8);
impl_parity!(Vec<u8>, test_parity_vec);
repeated!(a, b);
"#,
        expect![[r#"
            module my_crate::m 1-23
              trait my_crate::m::Parity 1-1
                method my_crate::m::Parity::is_even 1-1
              macro my_crate::m::impl_parity 3-14
              macro my_crate::m::repeated 16-18
              impl my_crate::m::{impl Parity for i8} 5-7
                method my_crate::m::{impl Parity for i8}::is_even 6-6
              module my_crate::m::test_parity_i8 9-12 test
                function my_crate::m::test_parity_i8::test_even 11-11 test
              impl my_crate::m::{impl Parity for Vec} 5-7
                method my_crate::m::{impl Parity for Vec}::is_even 6-6
              module my_crate::m::test_parity_vec 9-12 test
                function my_crate::m::test_parity_vec::test_even 11-11 test
              module my_crate::m::a 17-17
                function my_crate::m::a::t 17-17 test
              module my_crate::m::b 17-17
                function my_crate::m::b::t 17-17 test
            call my_crate::m::impl_parity -> assert! @11
            call my_crate::m::impl_parity -> <expr>.is_even @11
            call my_crate::m -> impl_parity! @20
            call my_crate::m -> impl_parity! @21
            call my_crate::m -> repeated! @22
            call my_crate::m::test_parity_i8::test_even -> assert! @11
            call my_crate::m::test_parity_i8::test_even -> i8.is_even @11
            call my_crate::m::test_parity_vec::test_even -> assert! @11
            call my_crate::m::test_parity_vec::test_even -> <expr>.is_even @11
            impl my_crate::m::{impl Parity for i8} type=i8 trait=Parity @5
            impl my_crate::m::{impl Parity for Vec} type=Vec trait=Parity @5
            binding my_crate::m::Parity::is_even return: bool @1
            binding my_crate::m::impl_parity test_macro: ? @3
            binding my_crate::m::repeated test_macro: ? @16
            binding my_crate::m::{impl Parity for i8}::is_even return: bool @6
            binding my_crate::m::{impl Parity for Vec}::is_even return: bool @6
        "#]],
    );
}
