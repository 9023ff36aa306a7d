// Package profile holds the named, versioned threshold profiles that the
// compare module judges an RDMA-vs-TCP comparison by. A profile's name
// carries its version ("prova-default/2"); a profile's values never change
// once released, a new version gets a new name, so a result recorded with
// a profile name can be judged again the same way later.
//
// It does not measure or compare anything; modules/compare does.
package profile
