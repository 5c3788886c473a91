//! Snapshot tests of Python extraction: one source file in, its rendered facts out.

use expect_test::{expect, Expect};
use tether_model::Language;

use crate::{extract, render_facts, SourceFile};

fn check(path: &str, module_name: &str, text: &str, expected: Expect) {
    let facts = extract(&SourceFile { path, language: Language::Python, module_name, text });
    expected.assert_eq(&render_facts(&facts));
}

#[test]
fn classes_methods_nested_functions_and_lambdas() {
    check(
        "pkg/shapes.py",
        "pkg.shapes",
        r#"
import os.path as osp
from . import util
from ..core import Base, helper as h
from typing import *

class Circle(Base, metaclass=Meta):
    def __init__(self, radius: float, helper: "Helper"):
        self.radius = radius
        self.helper = Helper()

    @property
    def area(self):
        return util.pi() * self.radius ** 2

    @staticmethod
    def unit():
        key = lambda c: c.area()
        return sorted([Circle(1)], key=key)

def build(n=default_count()):
    def inner():
        return h(n)
    shape = Circle(n)
    shape.area()
    return inner()

build(3)
"#,
        expect![[r#"
            module pkg.shapes 1-29
              class pkg.shapes.Circle 7-19
                method pkg.shapes.Circle.__init__ 8-10
                method pkg.shapes.Circle.area 12-14
                method pkg.shapes.Circle.unit 16-19
                  lambda pkg.shapes.Circle.unit.<lambda> 18-18
              function pkg.shapes.build 21-26
                function pkg.shapes.build.inner 22-23
            call pkg.shapes.Circle.__init__ -> Helper @10
            call pkg.shapes.Circle -> property @12
            call pkg.shapes.Circle.area -> util.pi @14
            call pkg.shapes.Circle -> staticmethod @16
            call pkg.shapes.Circle.unit -> c.area @18
            call pkg.shapes.Circle.unit -> sorted @19
            call pkg.shapes.Circle.unit -> Circle @19
            call pkg.shapes -> default_count @21
            call pkg.shapes.build.inner -> h @23
            call pkg.shapes.build -> Circle @24
            call pkg.shapes.build -> shape.area @25
            call pkg.shapes.build -> inner @26
            call pkg.shapes -> build @28
            reference pkg.shapes.Circle.unit -> key @19
            value pkg.shapes.Circle.__init__ -> radius @9
            value pkg.shapes.build.inner -> n @23
            value pkg.shapes.build -> n @24
            import pkg.shapes <- os.path as osp @2
            from pkg.shapes <- .util as util @3
            from pkg.shapes <- ..core.Base as Base @4
            from pkg.shapes <- ..core.helper as h @4
            from pkg.shapes <- typing.* @5
            supertype pkg.shapes.Circle : Base @7
            binding pkg.shapes.Circle.__init__ self: parameter @8
            binding pkg.shapes.Circle.__init__ radius: float @8
            binding pkg.shapes.Circle.__init__ helper: Helper @8
            binding pkg.shapes.Circle self.radius: float @9
            binding pkg.shapes.Circle self.helper: call Helper @10
            binding pkg.shapes.Circle.area @property: ? @13
            binding pkg.shapes.Circle.area self: parameter @13
            binding pkg.shapes.Circle.unit key: ? @18
            binding pkg.shapes.Circle.unit return: call sorted @19
            binding pkg.shapes.build n: parameter @21
            binding pkg.shapes.build.inner return: call h @23
            binding pkg.shapes.build shape: call Circle @24
            binding pkg.shapes.build return: call inner @26
        "#]],
    );
}
