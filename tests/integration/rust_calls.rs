//! Rust call resolution on multi-file, multi-crate fixtures: every marker line must reach
//! exactly its targets.

use expect_test::expect;
use tether_tests::check;

#[test]
fn paths_uses_modules_and_workspace_crates() {
    check(
        r#"
        //- /Cargo.toml
        [workspace]
        members = ["core", "app"]
        //- /core/Cargo.toml
        [package]
        name = "my-core"
        //- /core/src/lib.rs
        pub mod shapes;
        pub use shapes::area as area_of;
        pub fn version() -> u32 { 1 }
        //- /core/src/shapes.rs
        pub struct Circle { pub r: f64 }
        impl Circle {
            pub fn new(r: f64) -> Self { Self { r } }
            pub fn area(&self) -> f64 { area(self) }  // calls: my_core::shapes::area
            pub fn grow(&mut self) { self.r += 1.0; let a = self.area(); }  // calls: my_core::shapes::Circle::area
        }
        pub fn area(c: &Circle) -> f64 { c.r * c.r }
        pub fn unit() -> Circle { Circle::new(1.0) }  // calls: my_core::shapes::Circle::new
        //- /app/Cargo.toml
        [package]
        name = "app"
        //- /app/src/main.rs
        mod helpers;
        use my_core::shapes::{self, Circle};
        use my_core::area_of;

        fn main() {
            let c = Circle::new(2.0);  // calls: my_core::shapes::Circle::new
            c.area();  // calls: my_core::shapes::Circle::area
            area_of(&c);  // calls: my_core::shapes::area
            shapes::unit();  // calls: my_core::shapes::unit
            my_core::version();  // calls: my_core::version
            helpers::assist();  // calls: app::helpers::assist
            crate::helpers::assist();  // calls: app::helpers::assist
            std::process::exit(0);  // calls: std::process::exit
        }
        //- /app/src/helpers.rs
        pub fn assist() { super::main(); }  // calls: app::main
        "#,
        expect![[r#"
            app::helpers::assist -> app::main @1 qualified_path 0.95
            app::main -> app::helpers::assist @11 qualified_path 0.95
            app::main -> app::helpers::assist @12 qualified_path 0.95
            app::main -> my_core::shapes::Circle::area @7 typed_receiver 0.85
            app::main -> my_core::shapes::Circle::new @6 import 0.95
            app::main -> my_core::shapes::area @8 import 0.95
            app::main -> my_core::shapes::unit @9 import 0.95
            app::main -> my_core::version @10 qualified_path 0.95
            app::main -> std::process::exit @13 import 0.95
            my_core::shapes::Circle::area -> my_core::shapes::area @4 same_scope 0.95
            my_core::shapes::Circle::grow -> my_core::shapes::Circle::area @5 self_method 0.9
            my_core::shapes::unit -> my_core::shapes::Circle::new @8 type_member 0.9
        "#]],
    );
}

#[test]
fn traits_impls_dynamic_dispatch_and_macros() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "zoo"
        //- /src/lib.rs
        pub trait Animal {
            fn name(&self) -> String;
            fn greet(&self) -> String { self.name() }  // calls: zoo::Animal::name
        }
        pub struct Dog;
        pub struct Cat;
        impl Animal for Dog { fn name(&self) -> String { String::new() } }
        impl Animal for Cat { fn name(&self) -> String { String::new() } }

        macro_rules! shout { ($e:expr) => { $e } }

        pub fn concrete(d: &Dog) -> String {
            d.greet()  // calls: zoo::Animal::greet
        }
        pub fn dynamic(a: &dyn Animal) -> String {
            a.name()  // calls: zoo::Animal::name, zoo::{impl Animal for Dog}::name, zoo::{impl Animal for Cat}::name
        }
        pub fn generic<T: Animal>(a: T) -> String {
            shout!(1);  // calls: zoo::shout
            a.name()  // calls: zoo::Animal::name, zoo::{impl Animal for Dog}::name, zoo::{impl Animal for Cat}::name
        }
        #[cfg(test)]
        mod tests {
            use super::*;
            #[test]
            fn greets() { concrete(&Dog); }  // calls: zoo::concrete
        }
        "#,
        expect![[r#"
            zoo::Animal::greet -> zoo::Animal::name @3 self_method 0.9
            zoo::concrete -> zoo::Animal::greet @13 typed_receiver 0.85
            zoo::dynamic -> zoo::Animal::name @16 dynamic_dispatch 0.5
            zoo::dynamic -> zoo::{impl Animal for Cat}::name @16 dynamic_dispatch 0.5
            zoo::dynamic -> zoo::{impl Animal for Dog}::name @16 dynamic_dispatch 0.5
            zoo::generic -> zoo::Animal::name @20 dynamic_dispatch 0.5
            zoo::generic -> zoo::shout @19 macro 0.9
            zoo::generic -> zoo::{impl Animal for Cat}::name @20 dynamic_dispatch 0.5
            zoo::generic -> zoo::{impl Animal for Dog}::name @20 dynamic_dispatch 0.5
            zoo::tests::greets -> zoo::concrete @26 import 0.95
            zoo::{impl Animal for Cat}::name -> <builtin>::String::new @8 same_scope 0.95
            zoo::{impl Animal for Dog}::name -> <builtin>::String::new @7 same_scope 0.95
        "#]],
    );
}

#[test]
fn a_private_macro_named_like_a_std_macro_stays_in_its_file() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "docs"
        //- /src/lib.rs
        mod man;
        mod version;
        //- /src/man.rs
        macro_rules! writeln { ($($t:tt)*) => { std::writeln!($($t)*).unwrap() } }
        fn render(out: &mut String) { writeln!(out, "man"); }  // calls: docs::man::writeln
        //- /src/version.rs
        fn render(out: &mut String) { writeln!(out).unwrap(); }  // calls: <builtin>::writeln!
        "#,
        expect![[r#"
            docs::man::render -> docs::man::writeln @2 macro 0.9
            docs::man::writeln -> std::writeln @1 import 0.95
            docs::version::render -> <builtin>::writeln! @1 macro 0.9
            unresolved docs::man::writeln src/man.rs:1 unwrap (no_project_symbol_named)
            unresolved docs::version::render src/version.rs:1 writeln!(out).unwrap (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn a_called_path_names_the_function_beside_a_module_of_the_same_name() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "rt"
        //- /src/lib.rs
        pub mod time;
        pub mod panic;
        pub use time::sleep;
        fn runtime() -> u32 { 1 }
        pub fn main() {
            time::sleep(1);  // calls: rt::time::sleep::sleep
            crate::sleep(2);  // calls: rt::time::sleep::sleep
            let runtime = runtime();  // calls: rt::runtime
            panic!("no");  // calls: <builtin>::panic!
            crate::shout!();  // calls: rt::time::shout
        }
        //- /src/panic.rs
        pub fn hook() {}
        //- /src/time/mod.rs
        mod sleep;
        pub use sleep::sleep;
        #[macro_export]
        macro_rules! shout { () => {} }
        //- /src/time/sleep.rs
        pub fn sleep(millis: u64) {}
        "#,
        expect![[r#"
            rt::main -> <builtin>::panic! @9 macro 0.9
            rt::main -> rt::runtime @8 same_scope 0.95
            rt::main -> rt::time::shout @10 macro 0.9
            rt::main -> rt::time::sleep::sleep @6 qualified_path 0.95
            rt::main -> rt::time::sleep::sleep @7 qualified_path 0.95
        "#]],
    );
}

#[test]
fn blanket_extension_traits_reach_types_meeting_their_bound_where_imported() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "aio"
        //- /src/lib.rs
        pub mod io;
        pub mod stream;
        //- /src/io.rs
        pub trait AsyncRead { fn poll_read(&mut self); }
        pub trait AsyncReadExt: AsyncRead { fn read_exact(&mut self) { self.poll_read() } }
        impl<R: AsyncRead + ?Sized> AsyncReadExt for R {}
        pub struct File;
        impl AsyncRead for File { fn poll_read(&mut self) {} }
        pub struct Pipe;
        //- /src/stream.rs
        pub trait StreamExt { fn next(&mut self) {} }
        impl<St: ?Sized> StreamExt for St where St: futures::Stream {}
        pub struct Lines;
        impl futures::Stream for Lines {}
        //- /src/user.rs
        use crate::io::{AsyncRead, AsyncReadExt, File, Pipe};
        use crate::stream::{Lines, StreamExt};
        fn read(file: File, pipe: Pipe, lines: Lines, any: &mut dyn AsyncRead) {
            file.read_exact();  // calls: aio::io::AsyncReadExt::read_exact
            pipe.read_exact();  // calls: unresolved
            lines.next();  // calls: aio::stream::StreamExt::next
            any.read_exact();  // calls: aio::io::AsyncReadExt::read_exact
        }
        //- /src/elsewhere.rs
        use crate::io::File;
        fn read(file: File) {
            file.read_exact();  // calls: unresolved
        }
        "#,
        expect![[r#"
            aio::io::AsyncReadExt::read_exact -> aio::io::AsyncRead::poll_read @2 self_method 0.9
            aio::user::read -> aio::io::AsyncReadExt::read_exact @4 typed_receiver 0.85
            aio::user::read -> aio::io::AsyncReadExt::read_exact @7 typed_receiver 0.85
            aio::user::read -> aio::stream::StreamExt::next @6 typed_receiver 0.85
            unresolved aio::elsewhere::read src/elsewhere.rs:3 file.read_exact (unknown_member)
            unresolved aio::user::read src/user.rs:5 pipe.read_exact (unknown_member)
        "#]],
    );
}

#[test]
fn an_item_named_after_its_crate_leaves_the_crate_name_alone() {
    // `use bitflags::bitflags;` once resolved through itself, one `bitflags::` longer per
    // import pass; `use smallvec::{smallvec, SmallVec}` made `SmallVec` `smallvec::smallvec::SmallVec`.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "flags"
        //- /src/lib.rs
        use bitflags::bitflags;
        use smallvec::{smallvec, SmallVec};

        pub fn make() {
            bitflags!(x);  // calls: bitflags::bitflags
            let v: SmallVec<[u8; 4]> = SmallVec::new();  // calls: smallvec::SmallVec::new
            let w: SmallVec<[u8; 4]> = smallvec![1];  // calls: smallvec::smallvec
        }
        "#,
        expect![[r#"
            flags::make -> bitflags::bitflags @5 macro 0.9
            flags::make -> smallvec::SmallVec::new @6 import 0.95
            flags::make -> smallvec::smallvec @7 macro 0.9
        "#]],
    );
}

#[test]
fn imports_of_one_name_under_exclusive_cfgs_are_ambiguous() {
    // tokio imports `Mutex` from `parking_lot` with the feature and from its std wrapper
    // without it; picking the first import gave 0.95 edges to the feature's `lock`.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "locks"
        //- /src/lib.rs
        mod fast;
        mod plain;
        #[cfg(feature = "fast")]
        use crate::fast::Mutex;
        #[cfg(not(feature = "fast"))]
        use crate::plain::Mutex;

        pub fn make() {
            let m = Mutex::new(1);  // calls: locks::fast::Mutex::new, locks::plain::Mutex::new
        }
        pub struct Shared { inner: Mutex }
        impl Shared {
            fn get(&self) { self.inner.lock(); }  // calls: locks::fast::Mutex::lock, locks::plain::Mutex::lock
        }
        //- /src/fast.rs
        pub struct Mutex(u8);
        impl Mutex { pub fn new(v: u8) -> Mutex { Mutex(v) } pub fn lock(&self) {} }
        //- /src/plain.rs
        pub struct Mutex(u8);
        impl Mutex { pub fn new(v: u8) -> Mutex { Mutex(v) } pub fn lock(&self) {} }
        "#,
        expect![[r#"
            locks::Shared::get -> locks::fast::Mutex::lock @13 ambiguous 0.4
            locks::Shared::get -> locks::plain::Mutex::lock @13 ambiguous 0.4
            locks::fast::Mutex::new -> locks::fast::Mutex @2 constructor 0.9
            locks::make -> locks::fast::Mutex::new @9 ambiguous 0.4
            locks::make -> locks::plain::Mutex::new @9 ambiguous 0.4
            locks::plain::Mutex::new -> locks::plain::Mutex @2 constructor 0.9
        "#]],
    );
}

#[test]
fn a_module_declared_inside_an_inline_module_is_its_file() {
    // tokio's and rust-analyzer's integration tests share helpers this way; each helper file
    // is named by where it is, and was only reachable by a name-only guess.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "streams"
        //- /src/lib.rs
        pub fn run() {}
        //- /tests/chain.rs
        mod support {
            pub(crate) mod channel;
        }
        use support::channel;

        #[test]
        fn chains() {
            channel::pair();  // calls: support::channel::pair
        }
        //- /tests/merge.rs
        mod support {
            pub(crate) mod channel;
        }

        #[test]
        fn merges() {
            support::channel::pair();  // calls: support::channel::pair
        }
        //- /tests/support/channel.rs
        pub fn pair() {}
        //- /src/nested.rs
        mod inner {
            mod leaf;
            fn go() { leaf::grow(); }  // calls: streams::nested::inner::leaf::grow
        }
        //- /src/nested/inner/leaf.rs
        pub fn grow() {}
        "#,
        expect![[r#"
            chain::chains -> support::channel::pair @8 import 0.95
            merge::merges -> support::channel::pair @7 qualified_path 0.95
            streams::nested::inner::go -> streams::nested::inner::leaf::grow @3 qualified_path 0.95
        "#]],
    );
}

/// Tests a `macro_rules!` writes as modules (`mod $name { #[test] fn … }`), calling the
/// functions and methods each invocation passes as identifiers (`$method::<f32>(…)`,
/// `T::$method(…)`): each invocation is a test that calls what it passed.
#[test]
fn macro_written_test_modules_call_what_each_invocation_passes() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "numbers"
        //- /src/lib.rs
        pub trait Halve { fn halve(self) -> Self; }
        impl Halve for f32 { fn halve(self) -> Self { self / 2.0 } }
        pub fn double<T: Copy + std::ops::Add<Output = T>>(x: T) -> T { x + x }
        pub fn triple<T: Copy + std::ops::Add<Output = T>>(x: T) -> T { x + x + x }

        #[cfg(test)]
        mod tests {
            use super::*;

            macro_rules! each_width {
                ($($name:ident => $function:ident),* $(,)?) => {
                    $(
                        mod $name {
                            use super::*;
                            #[test]
                            fn narrow() { assert!($function::<f32>(1.0) > 0.0); }
                            #[test]
                            fn wide() { assert!($function::<f64>(1.0) > 0.0); }
                        }
                    )*
                };
            }

            macro_rules! each_method {
                ($name:ident, $method:ident) => {
                    mod $name {
                        use super::*;
                        #[test]
                        fn narrow() { assert!(<f32 as Halve>::$method(1.0) > 0.0); }
                    }
                };
            }

            each_width!(doubles => double, triples => triple);  // calls: numbers::tests::each_width, numbers::double, numbers::triple
            each_method!(halves, halve);  // calls: numbers::tests::each_method, numbers::Halve::halve, numbers::{impl Halve for f32}::halve
        }
        "#,
        expect![[r#"
            numbers::tests -> numbers::Halve::halve @35 name_only 0.2
            numbers::tests -> numbers::tests::each_method @35 macro 0.9
            numbers::tests -> numbers::tests::each_width @34 macro 0.9
            numbers::tests -> numbers::{impl Halve for f32}::halve @35 name_only 0.2
            numbers::tests::doubles -> numbers::double @34 macro 0.9
            numbers::tests::doubles -> numbers::tests::each_width @34 macro 0.9
            numbers::tests::doubles -> numbers::triple @34 macro 0.9
            numbers::tests::each_method -> <builtin>::assert! @29 macro 0.9
            numbers::tests::each_width -> <builtin>::assert! @16 macro 0.9
            numbers::tests::each_width -> <builtin>::assert! @18 macro 0.9
            numbers::tests::each_width -> numbers::double @16 macro 0.9
            numbers::tests::each_width -> numbers::double @18 macro 0.9
            numbers::tests::each_width -> numbers::triple @16 macro 0.9
            numbers::tests::each_width -> numbers::triple @18 macro 0.9
            numbers::tests::halves::narrow -> <builtin>::assert! @29 macro 0.9
            numbers::tests::halves::narrow -> numbers::Halve::halve @29 name_only 0.2
            numbers::tests::halves::narrow -> numbers::{impl Halve for f32}::halve @29 name_only 0.2
            unresolved numbers::tests src/lib.rs:35 each_method!(… halve …) (unanalysed_code)
        "#]],
    );
}

/// Test frameworks' attributes make tests cargo runs (`#[rstest]`, `#[test_case(…)]`,
/// `#[tokio::test]`) in an integration test file: a blast of what they call lists them, and
/// not the file's helpers.
#[test]
fn functions_under_test_framework_attributes_are_tests() {
    let (_directory, snapshot) = tether_tests::snapshot_of(
        r#"
        //- /Cargo.toml
        [package]
        name = "parsing"
        //- /src/lib.rs
        pub fn parse(text: &str) -> usize { text.len() }
        //- /tests/cases.rs
        use parsing::parse;
        use rstest::rstest;
        use test_case::test_case;

        fn one_letter() -> &'static str { "d" }

        #[rstest]
        #[case("a")]
        fn parses_cases(#[case] text: &str) { assert_eq!(parse(text), 1); }

        #[test_case("b" ; "one letter")]
        fn parses_test_cases(text: &str) { assert_eq!(parse(text), 1); }

        #[tokio::test]
        async fn parses_in_a_runtime() { assert_eq!(parse(one_letter()), 1); }
        "#,
    );
    let subject = snapshot.resolve_address("parsing::parse").unwrap();
    let answer = snapshot
        .blast_symbol(subject, tether_query::BlastOptions::default())
        .expect("the blast finishes");
    let tests = tether_tests::affected_test_names(&snapshot, &answer);
    assert_eq!(
        tests,
        ["cases::parses_cases", "cases::parses_in_a_runtime", "cases::parses_test_cases"]
    );
}

/// A `macro_rules!` that writes a trait's impl for the type it is given and a test module
/// named by its second argument (num-integer's `impl_integer_for_isize!(i8, test_integer_i8)`)
/// is expanded per invocation: the methods written in the macro's body are symbols at the
/// body's lines, one per type, and the tests are named as cargo names them, each calling the
/// impl of its own type.
#[test]
fn macro_written_impls_and_test_modules_are_expanded_per_invocation() {
    let (_directory, snapshot) = tether_tests::snapshot_of(
        r#"
        //- /Cargo.toml
        [package]
        name = "integers"
        //- /src/lib.rs
        pub trait Parity { fn is_even(&self) -> bool; fn is_odd(&self) -> bool; }

        macro_rules! impl_parity {
            ($T:ty, $test_mod:ident) => {
                impl Parity for $T {
                    fn is_even(&self) -> bool { *self % 2 == 0 }
                    fn is_odd(&self) -> bool { !self.is_even() }
                }

                #[cfg(test)]
                mod $test_mod {
                    use crate::Parity;

                    #[test]
                    fn test_odd() { assert!((3 as $T).is_odd()); }
                }
            };
        }

        impl_parity!(i8, test_parity_i8);
        impl_parity!(u64, test_parity_u64);
        "#,
    );
    let tests_of = |address: &str| -> Vec<String> {
        let subject = snapshot.resolve_address(address).unwrap();
        let answer = snapshot
            .blast_symbol(subject, tether_query::BlastOptions::default())
            .expect("the blast finishes");
        let mut tests = tether_tests::affected_test_names(&snapshot, &answer);
        tests.sort();
        tests
    };
    // Each expansion's calls bind to its own impl: callers of the i8 method are i8's.
    let callers_of = |address: &str| -> Vec<String> {
        let subject = snapshot.resolve_address(address).unwrap();
        let answer = snapshot.neighbours(
            subject,
            tether_query::NeighbourKind::Callers,
            tether_query::PageRequest::default(),
        );
        answer.items.iter().map(|item| snapshot.symbol(item.index).qualified_name.clone()).collect()
    };
    assert_eq!(
        callers_of("integers::{impl Parity for i8}::is_odd"),
        ["integers::test_parity_i8::test_odd"]
    );
    assert_eq!(
        callers_of("integers::{impl Parity for u64}::is_even"),
        ["integers::{impl Parity for u64}::is_odd"]
    );
    // The text both expansions share breaks both modules' tests when it changes, whichever
    // expansion (or the body's line) names it.
    for address in ["integers::{impl Parity for i8}::is_even", "src/lib.rs:6"] {
        assert_eq!(
            tests_of(address),
            ["integers::test_parity_i8::test_odd", "integers::test_parity_u64::test_odd"],
            "{address}"
        );
    }
    let line_of = |address: &str| {
        let subject = snapshot.resolve_address(address).unwrap();
        snapshot.symbol(subject).span.start_line
    };
    // Written at the macro's body, where a reader (and a mutation) points.
    assert_eq!(line_of("integers::{impl Parity for u64}::is_even"), 6);
    assert_eq!(line_of("integers::test_parity_i8::test_odd"), 15);
}

/// A `macro_rules!` whose rule repeats (`($name:ident for $($t:ty)*) => ($( impl $name for
/// $t { … } )*)`, num-traits' `int_trait_impl!(Num for usize u8)`) is expanded once per
/// iteration: an impl per type, and a test per `name => text` pair, each calling its impl.
#[test]
fn macro_rules_with_repetitions_are_expanded_per_iteration() {
    let (_directory, snapshot) = tether_tests::snapshot_of(
        r#"
        //- /Cargo.toml
        [package]
        name = "numbers"
        //- /src/lib.rs
        pub trait Num { fn from_text(text: &str) -> Self; }

        macro_rules! int_trait_impl {
            ($name:ident for $($t:ty)*) => ($(
                impl $name for $t {
                    fn from_text(text: &str) -> Self { text.len() as $t }
                }
            )*)
        }
        int_trait_impl!(Num for usize u8 core::num::Wrapping<u16>);

        macro_rules! parse_tests {
            ($($name:ident => $text:expr),*) => {
                $(
                    #[test]
                    fn $name() { assert_eq!(u8::from_text($text), 1); }
                )*
            };
        }
        parse_tests!(parses_one => "1", parses_pair => ("a", "b").0);
        "#,
    );
    let subject = snapshot.resolve_address("numbers::{impl Num for u8}::from_text").unwrap();
    assert_eq!(snapshot.symbol(subject).span.start_line, 6);
    assert!(snapshot.resolve_address("numbers::{impl Num for usize}::from_text").is_ok());
    assert!(snapshot.resolve_address("numbers::{impl Num for Wrapping}::from_text").is_ok());
    let answer = snapshot
        .blast_symbol(subject, tether_query::BlastOptions::default())
        .expect("the blast finishes");
    let mut tests = tether_tests::affected_test_names(&snapshot, &answer);
    tests.sort();
    assert_eq!(tests, ["numbers::parses_one", "numbers::parses_pair"]);
}

/// A project trait implemented for a primitive (`impl Parity for i8`): a method call on an
/// `i8` (a typed parameter or local, a suffixed literal, a cast, `self` inside the impl) may
/// reach that impl's method, not another type's impl, linked as a candidate (std's inherent
/// methods come first in Rust, and tether does not know them).
#[test]
fn calls_on_outside_types_reach_the_project_traits_impls_for_them() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "integers"
        //- /src/lib.rs
        pub trait Parity { fn is_even(&self) -> bool; fn is_odd(&self) -> bool; }
        impl Parity for i8 {
            fn is_even(&self) -> bool { *self % 2 == 0 }
            fn is_odd(&self) -> bool { !self.is_even() }  // calls: integers::{impl Parity for i8}::is_even
        }
        impl Parity for u64 {
            fn is_even(&self) -> bool { *self % 2 == 0 }
            fn is_odd(&self) -> bool { !self.is_even() }  // calls: integers::{impl Parity for u64}::is_even
        }
        pub fn f(x: i8) -> bool { x.is_odd() }  // calls: integers::{impl Parity for i8}::is_odd
        pub fn g() -> bool { (3 as u64).is_odd() }  // calls: integers::{impl Parity for u64}::is_odd
        pub fn h() -> bool { 3i8.is_odd() }  // calls: integers::{impl Parity for i8}::is_odd
        pub fn k() -> bool { let y: u64 = 3; y.is_odd() }  // calls: integers::{impl Parity for u64}::is_odd
        "#,
        expect![[r#"
            integers::f -> integers::{impl Parity for i8}::is_odd @10 ambiguous 0.4
            integers::g -> integers::{impl Parity for u64}::is_odd @11 ambiguous 0.4
            integers::h -> integers::{impl Parity for i8}::is_odd @12 ambiguous 0.4
            integers::k -> integers::{impl Parity for u64}::is_odd @13 ambiguous 0.4
            integers::{impl Parity for i8}::is_odd -> integers::{impl Parity for i8}::is_even @4 ambiguous 0.4
            integers::{impl Parity for u64}::is_odd -> integers::{impl Parity for u64}::is_even @8 ambiguous 0.4
        "#]],
    );
}

/// A trait impl for a smart pointer to a project type (indexmap's `impl IntoIterator for
/// Box<Slice<T>>`): `self.into_entries()` derefs to the pointee, which the impl's path does
/// not keep. It is never linked to a made-up `Box::into_entries`: it stays unresolved (a
/// hidden caller of every `into_entries`), while the pointer's own methods are std's.
#[test]
fn self_calls_in_an_impl_for_a_pointer_to_a_project_type_are_not_the_pointers() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "slices"
        //- /src/lib.rs
        pub struct Slice<T> { items: Vec<T> }
        impl<T> Slice<T> {
            pub(crate) fn into_entries(self: Box<Self>) -> Vec<T> { self.items }
        }
        impl<T> IntoIterator for Box<Slice<T>> {
            type Item = T;
            type IntoIter = std::vec::IntoIter<T>;
            fn into_iter(self) -> Self::IntoIter {
                let copy = self.clone();  // calls: <builtin>::Box::clone
                self.into_entries().into_iter()  // calls: unresolved
            }
        }
        "#,
        expect![[r#"
            slices::{impl IntoIterator for Box}::into_iter -> <builtin>::Box::clone @9 typed_receiver 0.85
            unresolved slices::{impl IntoIterator for Box}::into_iter src/lib.rs:10 self.into_entries (unknown_receiver_type)
            unresolved slices::{impl IntoIterator for Box}::into_iter src/lib.rs:10 self.into_entries().into_iter (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn one_type_defined_under_exclusive_cfgs_is_one_type() {
    // indexmap defines `IndexMap` twice, with a default hasher under `std` and without one
    // otherwise; its impls are written once for the name. Both definitions are the one type
    // its methods belong to: a call through either is not ambiguous.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "maps"
        //- /src/lib.rs
        #[cfg(feature = "std")]
        pub struct Map<K, S = u8> { keys: Vec<K>, s: S }
        #[cfg(not(feature = "std"))]
        pub struct Map<K, S> { keys: Vec<K>, s: S }
        impl<K> Map<K> {
            pub fn new() -> Self { Map { keys: Vec::new(), s: 0 } }
        }
        impl<K, S> Map<K, S> {
            pub fn insert(&mut self, key: K) {}
            pub fn len(&self) -> usize { self.keys.len() }
        }
        #[cfg(test)]
        mod tests {
            use super::*;
            #[test]
            fn it_works() {
                let mut map = Map::new();  // calls: maps::Map::new
                map.insert(1);  // calls: maps::Map::insert
                assert_eq!(map.len(), 1);  // calls: <builtin>::assert_eq!, maps::Map::len
            }
        }
        "#,
        expect![[r#"
            maps::Map::len -> <builtin>::Vec::len @10 typed_receiver 0.85
            maps::Map::new -> <builtin>::Vec::new @6 same_scope 0.95
            maps::tests::it_works -> <builtin>::assert_eq! @19 macro 0.9
            maps::tests::it_works -> maps::Map::insert @18 typed_receiver 0.85
            maps::tests::it_works -> maps::Map::len @19 typed_receiver 0.85
            maps::tests::it_works -> maps::Map::new @17 import 0.95
        "#]],
    );
}

#[test]
fn a_test_whose_body_a_macro_invocation_passes_calls_what_that_body_calls() {
    // indexmap's property tests: `quickcheck_limit! { fn contains(insert: Vec<u32>) -> bool
    // { … } }` writes `#[test] fn contains()` around a `fn prop` holding the body passed.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "maps"
        //- /src/lib.rs
        pub struct Map(Vec<u8>);
        impl Map {
            pub fn new() -> Map { Map(Vec::new()) }  // calls: <builtin>::Vec::new, maps::Map
            pub fn insert(&mut self, key: u8) {}
        }
        //- /tests/quick.rs
        use maps::Map;

        macro_rules! properties {
            ($(fn $name:ident($($arg:ident : $ty:ty),*) -> $ret:ty { $($code:tt)* })*) => {
                $(
                    #[test]
                    fn $name() {
                        fn prop($($arg: $ty),*) -> $ret {
                            $($code)*
                        }
                        check(prop as fn($($ty),*) -> $ret);
                    }
                )*
            };
        }

        fn check<T>(property: T) {}

        // A function named like the crate: a path's first segment is never a function.
        fn maps(keys: &[u8]) -> Map { Map::new() }  // calls: maps::Map::new

        properties! {
            fn contains(keys: Vec<u8>) -> bool {
                let mut map = Map::new();  // calls: maps::Map::new
                map.insert(1);  // calls: maps::Map::insert
                true
            }
        }
        "#,
        expect![[r#"
            maps::Map::new -> <builtin>::Vec::new @3 same_scope 0.95
            maps::Map::new -> maps::Map @3 constructor 0.9
            quick -> quick::properties @22 macro 0.9
            quick::contains -> maps::Map::insert @25 typed_receiver 0.85
            quick::contains -> maps::Map::new @24 import 0.95
            quick::maps -> maps::Map::new @20 import 0.95
            quick::properties -> quick::check @11 same_scope 0.95
        "#]],
    );
}
