//! `Pin` receivers: `self: Pin<&mut Self>` keeps `Pin`'s own methods (`as_mut`, `get_mut`)
//! std's and gives the others to `Self`; structs with `#[pin]` fields (pin-project) have the
//! generated `project` / `project_ref`, whose result has the struct's fields; `ready!(…)` gives
//! what a `Poll` holds.

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
            timer -> pin_project_lite::pin_project @4 import 0.95
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

#[test]
fn ready_gives_what_the_poll_holds() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "coop"
        //- /src/lib.rs
        use std::task::{ready, Context, Poll};
        pub struct Restore;
        impl Restore {
            pub fn made_progress(&self) {}
        }
        pub fn poll_proceed(cx: &mut Context<'_>) -> Poll<Restore> {
            Poll::Ready(Restore)
        }
        pub fn poll_read(cx: &mut Context<'_>) -> Poll<()> {
            let coop = ready!(poll_proceed(cx));
            coop.made_progress();  // calls: coop::Restore::made_progress
            std::task::ready!(poll_proceed(cx)).made_progress();  // calls: coop::Restore::made_progress, std::task::ready, coop::poll_proceed
            if poll_proceed(cx).is_ready() {}  // calls: <builtin>::Poll::is_ready, coop::poll_proceed
            Poll::Ready(())
        }
        "#,
        expect![[r#"
            coop::poll_proceed -> std::task::Poll::Ready @7 import 0.95
            coop::poll_read -> <builtin>::Poll::is_ready @13 typed_receiver 0.85
            coop::poll_read -> coop::Restore::made_progress @11 typed_receiver 0.85
            coop::poll_read -> coop::Restore::made_progress @12 typed_receiver 0.85
            coop::poll_read -> coop::poll_proceed @10 same_scope 0.95
            coop::poll_read -> coop::poll_proceed @12 same_scope 0.95
            coop::poll_read -> coop::poll_proceed @13 same_scope 0.95
            coop::poll_read -> std::task::Poll::Ready @14 import 0.95
            coop::poll_read -> std::task::ready @10 macro 0.9
            coop::poll_read -> std::task::ready @12 import 0.95
        "#]],
    );
}
