//! Program generators.
