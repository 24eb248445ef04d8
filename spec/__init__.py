"""Rule tables (data only). The TOML files beside this file ship inside the wheel."""
