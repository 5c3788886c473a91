//! `Pin` receivers: `self: Pin<&mut Self>` keeps `Pin`'s own methods (`as_mut`, `get_mut`)
//! std's and gives the others to `Self`; structs with `#[pin]` fields (pin-project) have the
//! generated `project` / `project_ref`, whose result has the struct's fields.

use expect_test::expect;
use tether_tests::check;

#[test]
fn pinned_self_and_pin_projections() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "timer"
        //- /src/lib.rs
        use std::pin::Pin;
        pub struct Entry;
        impl Entry { pub fn poll_elapsed(&mut self) {} }
        pin_project_lite::pin_project! {
            pub struct Sleep {
                #[pin]
                entry: Entry,
                deadline: u64,
            }
        }
        impl Sleep {
            pub fn reset(self: Pin<&mut Self>) {
                self.as_mut().poll_inner();  // calls: <builtin>::Pin::as_mut, timer::Sleep::poll_inner
                let me = self.project();  // calls: timer::Sleep::project
                me.entry.poll_elapsed();  // calls: timer::Entry::poll_elapsed
            }
            fn poll_inner(self: Pin<&mut Self>) {
                self.project_ref().entry.poll_elapsed();  // calls: timer::Sleep::project_ref, timer::Entry::poll_elapsed
            }
        }
        pub trait AsyncWrite {
            fn poll_write(self: Pin<&mut Self>);
            fn poll_write_all(self: Pin<&mut Self>) {
                self.poll_write();  // calls: timer::AsyncWrite::poll_write
            }
        }
        pub struct Plain { entry: Entry }
        impl Plain {
            pub fn run(&mut self) {
                self.project();  // calls: unresolved
            }
        }
        "#,
        expect![[r#"
            timer::AsyncWrite::poll_write_all -> timer::AsyncWrite::poll_write @24 self_method 0.9
            timer::Sleep::poll_inner -> timer::Entry::poll_elapsed @18 typed_receiver 0.85
            timer::Sleep::poll_inner -> timer::Sleep::project_ref @18 self_method 0.9
            timer::Sleep::reset -> <builtin>::Pin::as_mut @13 typed_receiver 0.85
            timer::Sleep::reset -> timer::Entry::poll_elapsed @15 typed_receiver 0.85
            timer::Sleep::reset -> timer::Sleep::poll_inner @13 typed_receiver 0.85
            timer::Sleep::reset -> timer::Sleep::project @14 self_method 0.9
            unresolved timer::Plain::run src/lib.rs:30 self.project (unknown_member)
        "#]],
    );
}
