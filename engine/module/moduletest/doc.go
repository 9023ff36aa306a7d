// Package moduletest helps test step modules without a network: FakeHost is
// a module.Host with scripted command replies, an in-memory file map and a
// transcript of everything a module ran; Run is the conformance suite every
// module package calls from its tests.
//
// It does not start SSH servers (engine/transport has those) and it does not
// interpret shell commands: a test scripts the replies of the commands its
// module issues, and models host state in Setup when a case needs it.
package moduletest
