module serbench/harnesses/go

go 1.25.0

require (
	github.com/buger/jsonparser v1.6.1
	github.com/bytedance/sonic v1.15.5
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/goccy/go-json v0.12.0
	github.com/google/flatbuffers v2.0.8+incompatible
	github.com/json-iterator/go v1.1.12
	github.com/mailru/easyjson v0.9.2
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/segmentio/encoding v0.5.4
	github.com/shamaton/msgpack/v2 v2.4.0
	github.com/tinylib/msgp v1.6.5
	github.com/ugorji/go/codec v1.3.0
	github.com/valyala/fastjson v1.6.10
	github.com/vmihailenco/msgpack/v5 v5.4.1
	go.mongodb.org/mongo-driver/v2 v2.10.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/modern-go/concurrent v0.0.0-20180228061459-e0a39a4cb421 // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/sys v0.22.0 // indirect
)
