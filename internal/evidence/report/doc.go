// Package report renders a run record for people and machines: Markdown
// (the summary and side-by-side table an operator pastes into a deployment
// document), one self-contained HTML file with inline SVG charts, Ant JUnit
// XML for CI servers, and JSON (schema prova-report/1, also usable as a
// baseline file).
//
// Build reads the record's generic data only (checks, result attributes,
// raw output paths), applies waivers and, when given, a baseline
// comparison. Attribute names such as lat_rdma_us or rdma_peers are
// hints: a record without them renders without the matching table rows or
// charts. docs/report.md lists every name read and every stable id.
//
// The package does not run anything, read the clock, or change the record.
package report
