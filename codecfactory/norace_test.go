//go:build !race

package codecfactory

const raceEnabled = false
