//! The answers editors ask for on the wire: a file's outline (`outline`) and the buffer
//! overlay of a connection (`buffer_update`, `buffer_close`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Freshness, SymbolRef};

/// `outline`: the symbols of one file, in line order.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OutlineAnswer {
    /// Repository-relative.
    pub path: String,
    pub items: Vec<SymbolRef>,
    pub freshness: Freshness,
}

/// `buffer_update` and `buffer_close`: the buffers now open on this connection.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BuffersAnswer {
    /// Repository-relative, sorted, with the version each was last given.
    pub buffers: Vec<OpenBuffer>,
}

/// An unsaved editor buffer a graph holds in place of the file on disk.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OpenBuffer {
    pub path: String,
    pub version: i64,
}
