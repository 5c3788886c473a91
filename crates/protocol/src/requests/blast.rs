//! `blast`: what depends on a symbol or on a file's symbols, and which tests reach them.

use tether_query::PageRequest;

use super::neighbours::read_symbol;
use super::parameters::{
    parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, DEPTH, LIMIT, SYMBOL, TESTS_LIMIT,
};
use super::{Parameter, Request, Subject};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    SYMBOL,
    parameter(
        "file",
        ParameterKind::Text,
        "A repository-relative file path: the blast of every symbol it defines (instead of symbol).",
    ),
    DEPTH,
    TESTS_LIMIT,
    LIMIT,
    CURSOR,
];

/// `blast`'s and `changes`' walk: depth, how many tests to list, the page of items.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WalkParams {
    pub depth: Option<usize>,
    pub tests_limit: Option<usize>,
    pub page: PageRequest,
}

impl WalkParams {
    pub(super) fn read(params: &ParamsReader) -> Result<WalkParams, RpcError> {
        Ok(WalkParams {
            depth: params.count("depth")?,
            tests_limit: params.count("tests_limit")?,
            page: params.page()?,
        })
    }

    pub(super) fn write(&self, params: &mut ParamsWriter) {
        params.put_count("depth", self.depth);
        params.put_count("tests_limit", self.tests_limit);
        params.put_page(&self.page);
    }
}

/// `file` wins when both it and `symbol` are given.
pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let walk = WalkParams::read(params)?;
    let subject = match params.text("file")? {
        Some(file) => Subject::Path(file.into()),
        None => Subject::Symbol(read_symbol(params)?),
    };
    Ok(Request::Blast { subject, walk })
}

pub(super) fn write(subject: &Subject, walk: &WalkParams, params: &mut ParamsWriter) {
    subject.write("file", params);
    walk.write(params);
}
