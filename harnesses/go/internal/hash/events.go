package hash

import "fmt"

// Event kinds of a document's parse events.
const (
	EvNull uint8 = iota
	EvBool
	EvInt  // I holds an int64
	EvUint // U holds a uint64
	EvFloat
	EvStr
	EvBin
	EvKey
	EvStartArray
	EvStartMap
	EvEnd
)

// Event is one parse event of a document: what a pull parser hands to the streaming hash. The
// hash-events baseline replays a prebuilt list of them through Stream (HashEvents), so it does
// the streaming form's hashing work without parsing.
type Event struct {
	S    string
	B    []byte
	U    uint64
	F    float64
	Kind uint8
}

// Events lists the events of a tree of the harness's own types (refdec's output), in order.
func Events(v any) ([]Event, error) {
	var out []Event
	err := events(v, &out, 0)
	return out, err
}

func events(v any, out *[]Event, depth int) error {
	switch x := v.(type) {
	case nil:
		*out = append(*out, Event{Kind: EvNull})
	case bool:
		e := Event{Kind: EvBool}
		if x {
			e.U = 1
		}
		*out = append(*out, e)
	case int64:
		*out = append(*out, Event{Kind: EvInt, U: uint64(x)})
	case uint64:
		*out = append(*out, Event{Kind: EvUint, U: x})
	case float64:
		*out = append(*out, Event{Kind: EvFloat, F: x})
	case string:
		*out = append(*out, Event{Kind: EvStr, S: x})
	case []byte:
		*out = append(*out, Event{Kind: EvBin, B: x})
	case []any:
		if depth >= MaxDepth {
			return errDepth
		}
		*out = append(*out, Event{Kind: EvStartArray})
		for _, e := range x {
			if err := events(e, out, depth+1); err != nil {
				return err
			}
		}
		*out = append(*out, Event{Kind: EvEnd})
	case map[string]any:
		if depth >= MaxDepth {
			return errDepth
		}
		*out = append(*out, Event{Kind: EvStartMap})
		for k, e := range x {
			*out = append(*out, Event{Kind: EvKey, S: k})
			if err := events(e, out, depth+1); err != nil {
				return err
			}
		}
		*out = append(*out, Event{Kind: EvEnd})
	default:
		return fmt.Errorf("value of Go type %T is not of the harness's tree", v)
	}
	return nil
}

// HashEvents is the streaming form of the hash over a list of events, through Stream, as the
// incremental rows hash: each scalar's hash, each key's hash, each container's frame.
func HashEvents(s *Stream, evs []Event) (uint64, error) {
	s.Reset()
	for i := range evs {
		e := &evs[i]
		var err error
		switch e.Kind {
		case EvNull:
			err = s.Emit(NullHash)
		case EvBool:
			err = s.Emit(Bool(e.U != 0))
		case EvInt:
			err = s.Emit(I64(int64(e.U)))
		case EvUint:
			err = s.Emit(U64(e.U))
		case EvFloat:
			err = s.Emit(F64(e.F))
		case EvStr:
			err = s.Emit(Str(e.S))
		case EvBin:
			err = s.Emit(Bin(e.B))
		case EvKey:
			err = s.Key(Str(e.S))
		case EvStartArray:
			s.StartArray()
		case EvStartMap:
			s.StartMap()
		case EvEnd:
			err = s.End()
		}
		if err != nil {
			return 0, err
		}
	}
	return s.Value()
}
