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
            value pkg.shapes.Circle.area -> self.radius @14
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

/// Only the value references of a file: the names whose value is handed on.
fn check_values(text: &str, expected: Expect) {
    let facts = extract(&SourceFile {
        path: "app.py",
        language: Language::Python,
        module_name: "app",
        text,
    });
    let rendered = render_facts(&facts);
    let values: Vec<&str> = rendered.lines().filter(|line| line.starts_with("value ")).collect();
    expected.assert_eq(&(values.join("\n") + "\n"));
}

#[test]
fn every_name_is_a_value_except_where_it_is_consumed_on_the_spot() {
    check_values(
        r#"
import os
from pkg import tool

def handler(x: Handler) -> Result:
    return x

@decorate
def run(cb, flag=default_flag):
    if cb and not flag:
        pass
    if isinstance(cb, (Handler, Other)) or cb is handler or cb == tool:
        pass
    tool.run(cb)
    handler(1)
    handler
    del cb
    try:
        pass
    except (Error, os.error) as error:
        raise Failure from error
    raise Failure
    value = tests_only if flag else other
    thunk = lambda: in_lambda
    items = [in_list_comprehension for _ in range(2)]
    keys = {as_key: 1}
    table[by_index] = 1
    spread(*[splatted], **{"cb": keyword_splatted})
    result = await awaited
    f"{formatted}"
    print(os.path.join)
    for step in [fetch, build]:
        step()
    for step in [fetch] + extra:
        step()
    match cb:
        case Pattern(field=captured):
            pass
"#,
        expect![[r#"
            value app.handler -> x @6
            value app -> run @8
            value app -> default_flag @9
            value app.run -> cb @14
            value app.run -> error @21
            value app.run -> tests_only @23
            value app.run -> other @23
            value app.run -> in_lambda @24
            value app.run -> in_list_comprehension @25
            value app.run -> as_key @26
            value app.run -> by_index @27
            value app.run -> splatted @28
            value app.run -> keyword_splatted @28
            value app.run -> awaited @29
            value app.run -> fetch @34
            value app.run -> extra @34
        "#]],
    );
}

#[test]
fn unittest_case_classes_hold_tests_whatever_their_name() {
    let facts = extract(&SourceFile {
        path: "tests/test_sample.py",
        language: Language::Python,
        module_name: "tests.test_sample",
        text: r#"
import unittest
from unittest import TestCase

class SampleTests(TestCase):
    def test_counts(self):
        pass
    def helper(self):
        pass

class AsyncChecks(unittest.IsolatedAsyncioTestCase):
    async def test_waits(self):
        pass

class Base(TestCase):
    pass

class Derived(Base):
    def test_inherited_base(self):
        pass

class Helpers:
    def test_not_collected(self):
        pass
"#,
    });
    let rendered = render_facts(&facts);
    let symbols: Vec<&str> = rendered
        .lines()
        .filter(|line| {
            line.trim_start().starts_with("class ") || line.trim_start().starts_with("method ")
        })
        .map(str::trim)
        .collect();
    expect![[r#"
        class tests.test_sample.SampleTests 5-9 test
        method tests.test_sample.SampleTests.test_counts 6-7 test
        method tests.test_sample.SampleTests.helper 8-9 test
        class tests.test_sample.AsyncChecks 11-13 test
        method tests.test_sample.AsyncChecks.test_waits 12-13 test
        class tests.test_sample.Base 15-16 test
        class tests.test_sample.Derived 18-20 test
        method tests.test_sample.Derived.test_inherited_base 19-20 test
        class tests.test_sample.Helpers 22-24
        method tests.test_sample.Helpers.test_not_collected 23-24
    "#]]
    .assert_eq(&(symbols.join("\n") + "\n"));
}
