// Package register installs pqcodec's codecs in arrow-go's codec registry
// when imported for its side effect:
//
//	import _ "github.com/pqcodec/pqcodec/adapters/arrowgo/register"
//
// It is arrowgo.Register() with default options, run at init.
package register

import "github.com/pqcodec/pqcodec/adapters/arrowgo"

func init() {
	if err := arrowgo.Register(); err != nil {
		panic(err) // only invalid options fail, and there are none here
	}
}
