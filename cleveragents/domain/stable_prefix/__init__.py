"""The stable prompt prefix.

A provider's prompt cache pays only when the prefix of a request is byte-identical to an earlier
one. The prefix is therefore rendered from fixed sections in a fixed order (core rules, project
instructions, tool contract, stable facts, professional skills), with tools sorted by name, facts
sorted by key and tool schemas as canonical JSON, so the same content always gives the same bytes
whatever order it was written or loaded in. Texts are normalised on the way in (NFC, LF line
endings, no trailing spaces, no blank lines at the ends): an editor's line endings do not break
the cache either.

What may not enter a prefix (volatile content, credentials, data of another class) is decided by
`StablePrefixBuilder`; this package only holds the models and the rules:

* `canonical_text`: text normalisation, canonical JSON and the SHA-256 fingerprint;
* `spec`: the sections and the spec a prefix is built from (`PrefixSpec` and its items);
* `spec_parsing`: a spec from plain data, with one-line errors naming the place;
* `fields`: every text of a spec with where it comes from, for the builder's checks;
* `rendering`: the prefix text and its fingerprints (`render_prefix`);
* `problems`: why content may not enter a prefix (`UnstablePrefixError`);
* `diff`: how two prefixes differ, as a cache sees it (`diff_prefixes`).
"""
