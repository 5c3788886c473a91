//! Structs under salsa's attribute macros get a getter method per field (`krate.data(db)`),
//! returning the field's type; other structs' fields are not methods.

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
