//! Extraction never panics and never fails, whatever the bytes.

use proptest::prelude::*;
use tether_model::Language;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_give_facts_or_diagnostics(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        for language in Language::ALL {
            let facts = tether_extract::extract_bytes("fuzz/input.src", language, "fuzz", &bytes, 1 << 20);
            prop_assert_eq!(facts.path.as_str(), "fuzz/input.src");
        }
    }

    #[test]
    fn arbitrary_source_like_text_never_panics(text in "[a-z_(){}\\[\\]:;.,=<>&*'\"#!@ \n\t]{0,600}") {
        for language in Language::ALL {
            let facts = tether_extract::extract_bytes("fuzz/input.src", language, "fuzz", text.as_bytes(), 1 << 20);
            // The module symbol always exists for text input.
            prop_assert!(!facts.symbols.is_empty());
        }
    }
}
