//! `Pin` receivers and pin projections: `self: Pin<&mut Self>`, `self.as_mut()`, a
//! `Pin<&mut T>` parameter, and `self.project()` of a `pin_project!` struct.

use expect_test::expect;
use tether_tests::check;

#[test]
fn pinned_self_and_parameters_reach_the_pointee() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "futs"
        //- /src/lib.rs
        use std::pin::Pin;
        use std::task::Context;

        pin_project_lite::pin_project! {
            pub struct Delay {
                #[pin]
                timer: Timer,
                ticks: Counter,
            }
        }
        pub struct Timer;
        impl Timer {
            pub fn fire(self: Pin<&mut Self>) {}
        }
        pub struct Counter;
        impl Counter {
            pub fn bump(&mut self) {}
        }

        impl Delay {
            fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) {
                self.as_mut().reset();  // calls: <builtin>::Pin::as_mut, futs::Delay::reset
                let me = self.project();  // calls: none
                me.timer.fire();  // calls: futs::Timer::fire
                me.ticks.bump();  // calls: futs::Counter::bump
            }
            fn reset(&mut self) {}
        }

        fn drive(timer: Pin<&mut Timer>) {
            timer.fire();  // calls: futs::Timer::fire
        }
        "#,
        expect![[r#"
            futs::Delay::poll -> <builtin>::Pin::as_mut @22 typed_receiver 0.85
            futs::Delay::poll -> futs::Counter::bump @25 typed_receiver 0.85
            futs::Delay::poll -> futs::Delay::reset @22 typed_receiver 0.85
            futs::Delay::poll -> futs::Timer::fire @24 typed_receiver 0.85
            futs::drive -> futs::Timer::fire @31 typed_receiver 0.85
            unresolved futs::Delay::poll src/lib.rs:23 self.project (no_project_symbol_named)
        "#]],
    );
}
