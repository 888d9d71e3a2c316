"""Date formats where Django's own don't read right (FORMAT_MODULE_PATH): only what
differs is here; everything else comes from Django's locale. Slovak months in the
genitive (sk/), an Arabic date-and-time order (ar/)."""
