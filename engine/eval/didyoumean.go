package eval

import "github.com/agext/levenshtein"

// DidYouMean returns the candidate closest to given when it is close enough
// to be a likely typo, or "".
func DidYouMean(given string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		d := levenshtein.Distance(given, c, nil)
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
