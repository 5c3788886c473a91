//! Which Python decorators hand the decorated function back as it was (or wrapped, but still
//! called by its own name), so that decorating does not make it a value others may call. The
//! list is data: `queries/python/transparent_decorators.txt`, one last-name per line.

use std::collections::HashSet;
use std::sync::OnceLock;

const TRANSPARENT_DECORATORS: &str =
    include_str!("../../../queries/python/transparent_decorators.txt");

fn transparent() -> &'static HashSet<&'static str> {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        TRANSPARENT_DECORATORS
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect()
    })
}

/// Whether a decorator (by its last name: `lru_cache` for `@functools.lru_cache(64)`) leaves
/// the function to be called by its name only.
pub(crate) fn is_transparent(name: &str) -> bool {
    transparent().contains(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_list_loads_and_names_the_usual_ones() {
        for name in
            ["staticmethod", "classmethod", "lru_cache", "wraps", "overload", "abstractmethod"]
        {
            assert!(super::is_transparent(name), "{name}");
        }
        assert!(!super::is_transparent("route"));
    }
}
