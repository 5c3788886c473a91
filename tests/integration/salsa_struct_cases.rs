//! Structs under salsa's attribute macros get a getter method per field (`krate.data(db)`),
//! returning the field's type; other structs' fields are not methods. A type a macro defines
//! (`bitflags! { pub struct AttrFlags: u64 { … } }`) is seen through its one inherent impl.

use expect_test::expect;
use tether_tests::check;

#[test]
fn salsa_structs_have_a_getter_per_field() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "base"
        //- /src/lib.rs
        pub struct Db;
        pub struct CrateData;
        impl CrateData { pub fn edition(&self) -> u32 { 0 } }
        #[salsa::input]
        #[derive(Debug)]
        pub struct Crate {
            #[returns(ref)]
            pub data: CrateData,
            pub name: String,
        }
        #[salsa::interned(no_lifetime)]
        pub struct MacroCallId { pub loc: CrateData }
        pub struct Plain { pub data: CrateData }
        impl Crate {
            pub fn edition(self, db: &Db) -> u32 {
                self.data(db).edition()  // calls: base::Crate::data, base::CrateData::edition
            }
        }
        pub fn run(krate: Crate, id: MacroCallId, plain: Plain, db: &Db) {
            krate.data(db).edition();  // calls: base::Crate::data, base::CrateData::edition
            krate.name(db).len();  // calls: base::Crate::name, <builtin>::String::len
            id.loc(db);  // calls: base::MacroCallId::loc
            plain.data(db);  // calls: unresolved
        }
        "#,
        expect![[r#"
            base::Crate::edition -> base::Crate::data @16 self_method 0.9
            base::Crate::edition -> base::CrateData::edition @16 typed_receiver 0.85
            base::run -> <builtin>::String::len @21 typed_receiver 0.85
            base::run -> base::Crate::data @20 typed_receiver 0.85
            base::run -> base::Crate::name @21 typed_receiver 0.85
            base::run -> base::CrateData::edition @20 typed_receiver 0.85
            base::run -> base::MacroCallId::loc @22 typed_receiver 0.85
            unresolved base::run src/lib.rs:23 plain.data (unknown_member)
        "#]],
    );
}

#[test]
fn types_a_macro_defines_are_seen_through_their_inherent_impl() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "attrs"
        //- /src/flags.rs
        bitflags::bitflags! {
            pub struct AttrFlags: u64 {
                const DEPRECATED = 1;
            }
        }
        impl AttrFlags {
            pub fn query(owner: u32) -> AttrFlags { unreachable!("fixture") }
            pub fn is_unstable(self) -> bool { false }
            pub fn is_stable(self) -> bool { !self.is_unstable() }  // calls: attrs::flags::AttrFlags::is_unstable
        }
        macro_rules! define_two { ($($name:ident),*) => { $(pub struct $name;)* } }
        define_two!(Twice);
        impl Twice { pub fn a(&self) {} }
        impl Twice { pub fn b(&self) {} }
        //- /src/lib.rs
        mod flags;
        use crate::flags::{AttrFlags, Twice};
        pub trait Describe { fn describe(&self) -> u32; }
        impl Describe for AttrFlags {
            fn describe(&self) -> u32 { self.is_stable(); 0 }  // calls: attrs::flags::AttrFlags::is_stable
        }
        pub fn run() {
            AttrFlags::query(1).is_unstable();  // calls: attrs::flags::AttrFlags::query, attrs::flags::AttrFlags::is_unstable
            let flags: AttrFlags = AttrFlags::query(2);  // calls: attrs::flags::AttrFlags::query
            flags.is_unstable();  // calls: attrs::flags::AttrFlags::is_unstable
            flags.describe();  // calls: attrs::{impl Describe for AttrFlags}::describe
            Twice::a(&Twice);  // calls: attrs::flags::Twice::a
        }
        "#,
        expect![[r#"
            attrs::flags -> attrs::flags::define_two @12 macro 0.9
            attrs::flags -> bitflags::bitflags @1 import 0.95
            attrs::flags::AttrFlags::is_stable -> attrs::flags::AttrFlags::is_unstable @9 self_method 0.9
            attrs::flags::AttrFlags::query -> <builtin>::unreachable! @7 macro 0.9
            attrs::run -> attrs::flags::AttrFlags::is_unstable @10 typed_receiver 0.85
            attrs::run -> attrs::flags::AttrFlags::is_unstable @8 typed_receiver 0.85
            attrs::run -> attrs::flags::AttrFlags::query @8 import 0.95
            attrs::run -> attrs::flags::AttrFlags::query @9 import 0.95
            attrs::run -> attrs::flags::Twice::a @12 import 0.95
            attrs::run -> attrs::{impl Describe for AttrFlags}::describe @11 typed_receiver 0.85
            attrs::{impl Describe for AttrFlags}::describe -> attrs::flags::AttrFlags::is_stable @5 self_method 0.9
        "#]],
    );
}
