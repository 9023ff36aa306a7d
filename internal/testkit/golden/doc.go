// Package golden compares test output with a golden file kept under
// testdata, or rewrites the file when UPDATE_GOLDEN=1 is set. It does not
// format or normalise what it is given: callers pass the exact bytes they
// want reviewed.
package golden
