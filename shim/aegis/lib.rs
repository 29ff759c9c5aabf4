// Empty: this manifest exists only to pin and fetch the aegis crate (fetch.sh).
