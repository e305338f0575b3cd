"""Code generated from spec/schemas/ by ../../regen-schemas.sh (committed; do not edit)."""
