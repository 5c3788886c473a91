//! `blast` lists only tests a runner collects (issue 41): code written inside a test reaches
//! the test it runs in and is never listed itself; a test class, a helper method of one, a
//! function nested in a Rust test and a method of a helper type in a test module are test
//! code, not tests. A Rust test module reached itself is listed as the stand-in for tests a
//! macro writes there.

use tether_query::BlastOptions;
use tether_tests::snapshot_of;

fn tests_affected(fixture: &str, subject: &str) -> Vec<String> {
    let (_directory, snapshot) = snapshot_of(fixture);
    let subject = snapshot.resolve_address(subject).unwrap();
    let answer = snapshot.blast_symbol(subject, BlastOptions::default()).unwrap();
    answer
        .tests_affected
        .iter()
        .map(|test| snapshot.symbol(test.index).qualified_name.clone())
        .collect()
}

#[test]
fn python_test_code_lists_the_test_it_runs_in_not_itself() {
    let fixture = r#"
        //- /pkg/__init__.py
        //- /pkg/core.py
        def helper(x):
            return x + 1

        def loader(x):
            return x

        class Schema:
            def load(self, value):
                return loader(value)
        //- /tests/test_core.py
        import pytest
        from pkg.core import helper, Schema

        def test_direct():
            assert helper(1) == 2

        def test_nested():
            def inner():
                return helper(3)
            return inner

        def test_nested_class():
            class LocalSchema(Schema):
                def dump(self):
                    return helper(4)
            return LocalSchema

        class TestThing:
            @pytest.mark.parametrize("v", [1, 2])
            def test_param(self, v):
                assert helper(v)

            def helper_method(self):
                return helper(9)

            def test_uses_helper_method(self):
                assert self.helper_method()

        class Helper:
            def run(self):
                return helper(5)
        "#;
    assert_eq!(
        tests_affected(fixture, "pkg.core.helper"),
        [
            "test_core.TestThing.test_param",
            "test_core.test_direct",
            "test_core.test_nested",
            "test_core.test_nested_class",
            "test_core.TestThing.test_uses_helper_method",
        ]
    );
}

#[test]
fn rust_test_code_lists_the_test_it_runs_in_not_itself() {
    let fixture = r#"
        //- /Cargo.toml
        [package]
        name = "shapes"
        //- /src/lib.rs
        pub fn area(side: u32) -> u32 { side * side }

        #[cfg(test)]
        mod tests {
            use super::area;

            struct Fixture;

            impl Fixture {
                fn build(&self) -> u32 { area(2) }
            }

            #[test]
            fn squares() {
                assert_eq!(area(3), 9);
            }

            #[test]
            fn nested() {
                fn inner() -> u32 { area(4) }
                assert_eq!(inner(), 16);
            }

            #[test]
            fn through_a_fixture() {
                assert_eq!(Fixture.build(), 4);
            }

            // A helper: test code, but no `#[test]`, so cargo does not run it by name.
            fn setup() -> u32 { area(5) }

            #[test]
            fn through_a_helper() {
                assert_eq!(setup(), 25);
            }
        }
        "#;
    assert_eq!(
        tests_affected(fixture, "shapes::area"),
        // The test module, reached itself (`use super::area`), stands for tests a macro may
        // write there that tether cannot name (`cargo test shapes::tests` runs them all).
        [
            "shapes::tests",
            "shapes::tests::nested",
            "shapes::tests::squares",
            "shapes::tests::through_a_helper",
            "shapes::tests::through_a_fixture"
        ]
    );
}

/// A test class collects the `test_…` methods it inherits, from a mixin that is no test class
/// or from another test class, as tests of its own (pytest's `TestChild::test_x`): the base's
/// method is listed, with each collecting class's node id; a method the class overrides is
/// not collected from the base; a mixin's helper is no test.
#[test]
fn inherited_test_methods_are_listed_with_each_collecting_class() {
    let fixture = r#"
        //- /pkg/__init__.py
        //- /pkg/core.py
        def pos():
            return 1
        //- /tests/test_io.py
        from unittest import TestCase
        from pkg.core import pos

        class BaseChecks:
            def test_pos(self):
                assert pos() == 1

            def test_overridden(self):
                assert pos()

            def check_helper(self):
                return pos()

        class TestBytes(TestCase, BaseChecks):
            def test_overridden(self):
                assert True

        class TestText(TestCase, BaseChecks):
            pass

        class TestMore(TestText):
            def test_uses_helper(self):
                assert self.check_helper()
    "#;
    let (_directory, snapshot) = snapshot_of(fixture);
    let subject = snapshot.resolve_address("pkg.core.pos").unwrap();
    let answer = snapshot.blast_symbol(subject, BlastOptions::default()).unwrap();
    let listed: Vec<String> = answer
        .tests_affected
        .iter()
        .map(|test| {
            format!(
                "{} {}",
                snapshot.symbol(test.index).qualified_name,
                snapshot.runner_test_ids(test.index).join(",")
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            "test_io.BaseChecks.test_overridden tests/test_io.py::TestText::test_overridden,tests/test_io.py::TestMore::test_overridden",
            "test_io.BaseChecks.test_pos tests/test_io.py::TestBytes::test_pos,tests/test_io.py::TestText::test_pos,tests/test_io.py::TestMore::test_pos",
            "test_io.TestMore.test_uses_helper tests/test_io.py::TestMore::test_uses_helper",
        ]
    );
}

#[test]
fn functions_passed_as_items_to_a_test_writing_macro_are_its_tests() {
    // indexmap's property tests: `quickcheck_limit! { fn contains(…) -> bool { … } }` wraps
    // each function in `#[test] fn $fn_name()`; libtest names the test `quick::contains`.
    let fixture = r#"
        //- /Cargo.toml
        [package]
        name = "maps"
        //- /src/lib.rs
        pub struct Map(Vec<u8>);
        impl Map {
            pub fn new() -> Map { Map(Vec::new()) }
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

        fn helper(keys: &[u8]) -> Map { Map::new() }

        properties! {
            fn contains(keys: Vec<u8>) -> bool {
                let mut map = helper(&keys);
                map.insert(1);
                true
            }
            fn empty(keys: Vec<u8>) -> bool {
                Map::new();
                true
            }
        }
        "#;
    assert_eq!(tests_affected(fixture, "maps::Map::insert"), ["quick::contains"]);
    let mut tests = tests_affected(fixture, "maps::Map::new");
    tests.sort();
    assert_eq!(tests, ["quick::contains", "quick::empty"]);
}

/// A test whose last attribute carries a comment (arrayvec's `#[cfg_attr(miri, ignore)] //
/// Miri is too slow`) is still a test.
#[test]
fn a_comment_after_a_tests_attribute_keeps_it_a_test() {
    let fixture = r#"
        //- /Cargo.toml
        [package]
        name = "chars"
        //- /src/lib.rs
        pub fn encode(c: char) -> u32 { c as u32 }

        #[test]
        #[cfg_attr(miri, ignore)] // Miri is too slow
        fn test_encode() { assert_eq!(encode('a'), 97); }

        #[test] // a plain comment
        fn test_again() { assert_eq!(encode('b'), 98); }
    "#;
    assert_eq!(
        tests_affected(fixture, "chars::encode"),
        ["chars::test_again", "chars::test_encode"]
    );
}
