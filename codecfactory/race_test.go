//go:build race

package codecfactory

const raceEnabled = true
