/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError;

const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const serbench = $root.serbench = (() => {

    const serbench = {};

    serbench.typed = (function() {

        const typed = {};

        typed.Product = (function() {

            const Product = function (p) {
                this.tags = [];
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            Product.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Product.prototype.name = "";
            Product.prototype.price = 0;
            Product.prototype.in_stock = false;
            Product.prototype.tags = $util.emptyArray;

            Product.create = function(properties) {
                return new Product(properties);
            };

            Product.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.id != null && $Object.hasOwnProperty.call(m, "id") && (typeof m.id === "object" ? m.id.low || m.id.high : m.id !== 0))
                    w.uint32(8).uint64(m.id);
                if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                    w.uint32(18).string(m.name);
                if (m.price != null && $Object.hasOwnProperty.call(m, "price") && !$Object.is(m.price, 0))
                    w.uint32(25).double(m.price);
                if (m.in_stock != null && $Object.hasOwnProperty.call(m, "in_stock") && m.in_stock !== false)
                    w.uint32(32).bool(m.in_stock);
                if (m.tags != null && m.tags.length) {
                    for (var i = 0; i < m.tags.length; ++i)
                        w.uint32(42).string(m.tags[i]);
                }
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            Product.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m, v;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.Product();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 0)
                                break;
                            if (typeof (v = r.uint64()) === "object" ? v.low || v.high : v !== 0)
                                m.id = v;
                            else
                                delete m.id;
                            continue;
                        }
                    case 2: {
                            if (u !== 2)
                                break;
                            if ((v = r.stringVerify()).length)
                                m.name = v;
                            else
                                delete m.name;
                            continue;
                        }
                    case 3: {
                            if (u !== 1)
                                break;
                            if (!$Object.is(v = r.double(), 0))
                                m.price = v;
                            else
                                delete m.price;
                            continue;
                        }
                    case 4: {
                            if (u !== 0)
                                break;
                            if (v = r.bool())
                                m.in_stock = v;
                            else
                                delete m.in_stock;
                            continue;
                        }
                    case 5: {
                            if (u !== 2)
                                break;
                            if (!(m.tags && m.tags.length))
                                m.tags = [];
                            m.tags.push(r.stringVerify());
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            Product.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.Product";
            };

            return Product;
        })();

        typed.Side = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "BUY"] = 0;
            values[valuesById[1] = "SELL"] = 1;
            return values;
        })();

        typed.Trade = (function() {

            const Trade = function (p) {
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            Trade.prototype.price = 0;
            Trade.prototype.flag = false;
            Trade.prototype.text = "";
            Trade.prototype.side = 0;
            Trade.prototype.small_int = 0;
            Trade.prototype.long_int = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            Trade.create = function(properties) {
                return new Trade(properties);
            };

            Trade.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.price != null && $Object.hasOwnProperty.call(m, "price") && !$Object.is(m.price, 0))
                    w.uint32(9).double(m.price);
                if (m.flag != null && $Object.hasOwnProperty.call(m, "flag") && m.flag !== false)
                    w.uint32(16).bool(m.flag);
                if (m.text != null && $Object.hasOwnProperty.call(m, "text") && m.text !== "")
                    w.uint32(26).string(m.text);
                if (m.side != null && $Object.hasOwnProperty.call(m, "side") && m.side !== 0)
                    w.uint32(32).int32(m.side);
                if (m.small_int != null && $Object.hasOwnProperty.call(m, "small_int") && m.small_int !== 0)
                    w.uint32(40).sint32(m.small_int);
                if (m.long_int != null && $Object.hasOwnProperty.call(m, "long_int") && (typeof m.long_int === "object" ? m.long_int.low || m.long_int.high : m.long_int !== 0))
                    w.uint32(48).sint64(m.long_int);
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            Trade.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m, v;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.Trade();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 1)
                                break;
                            if (!$Object.is(v = r.double(), 0))
                                m.price = v;
                            else
                                delete m.price;
                            continue;
                        }
                    case 2: {
                            if (u !== 0)
                                break;
                            if (v = r.bool())
                                m.flag = v;
                            else
                                delete m.flag;
                            continue;
                        }
                    case 3: {
                            if (u !== 2)
                                break;
                            if ((v = r.stringVerify()).length)
                                m.text = v;
                            else
                                delete m.text;
                            continue;
                        }
                    case 4: {
                            if (u !== 0)
                                break;
                            if (v = r.int32())
                                m.side = v;
                            else
                                delete m.side;
                            continue;
                        }
                    case 5: {
                            if (u !== 0)
                                break;
                            if (v = r.sint32())
                                m.small_int = v;
                            else
                                delete m.small_int;
                            continue;
                        }
                    case 6: {
                            if (u !== 0)
                                break;
                            if (typeof (v = r.sint64()) === "object" ? v.low || v.high : v !== 0)
                                m.long_int = v;
                            else
                                delete m.long_int;
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            Trade.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.Trade";
            };

            return Trade;
        })();

        typed.Point = (function() {

            const Point = function (p) {
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            Point.prototype.x = 0;
            Point.prototype.y = 0;
            Point.prototype.z = 0;

            Point.create = function(properties) {
                return new Point(properties);
            };

            Point.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.x != null && $Object.hasOwnProperty.call(m, "x") && !$Object.is(m.x, 0))
                    w.uint32(9).double(m.x);
                if (m.y != null && $Object.hasOwnProperty.call(m, "y") && !$Object.is(m.y, 0))
                    w.uint32(17).double(m.y);
                if (m.z != null && $Object.hasOwnProperty.call(m, "z") && !$Object.is(m.z, 0))
                    w.uint32(29).float(m.z);
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            Point.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m, v;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.Point();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 1)
                                break;
                            if (!$Object.is(v = r.double(), 0))
                                m.x = v;
                            else
                                delete m.x;
                            continue;
                        }
                    case 2: {
                            if (u !== 1)
                                break;
                            if (!$Object.is(v = r.double(), 0))
                                m.y = v;
                            else
                                delete m.y;
                            continue;
                        }
                    case 3: {
                            if (u !== 5)
                                break;
                            if (!$Object.is(v = r.float(), 0))
                                m.z = v;
                            else
                                delete m.z;
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            Point.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.Point";
            };

            return Point;
        })();

        typed.Inner = (function() {

            const Inner = function (p) {
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            Inner.prototype.label = "";
            Inner.prototype.point = null;

            Inner.create = function(properties) {
                return new Inner(properties);
            };

            Inner.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.label != null && $Object.hasOwnProperty.call(m, "label") && m.label !== "")
                    w.uint32(10).string(m.label);
                if (m.point != null && $Object.hasOwnProperty.call(m, "point"))
                    $root.serbench.typed.Point.encode(m.point, w.uint32(18).fork(), q + 1).ldelim();
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            Inner.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m, v;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.Inner();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 2)
                                break;
                            if ((v = r.stringVerify()).length)
                                m.label = v;
                            else
                                delete m.label;
                            continue;
                        }
                    case 2: {
                            if (u !== 2)
                                break;
                            m.point = $root.serbench.typed.Point.decode(r, r.size(), $undefined, q + 1, m.point);
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            Inner.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.Inner";
            };

            return Inner;
        })();

        typed.Nested = (function() {

            const Nested = function (p) {
                this.u8s = [];
                this.u16s = [];
                this.u32s = [];
                this.u64s = [];
                this.i8s = [];
                this.i16s = [];
                this.i32s = [];
                this.i64s = [];
                this.f32s = [];
                this.f64s = [];
                this.flags = [];
                this.names = [];
                this.counts = {};
                this.children = [];
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            Nested.prototype.u8 = 0;
            Nested.prototype.u16 = 0;
            Nested.prototype.u32 = 0;
            Nested.prototype.u64 = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Nested.prototype.i8 = 0;
            Nested.prototype.i16 = 0;
            Nested.prototype.i32 = 0;
            Nested.prototype.i64 = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Nested.prototype.f32 = 0;
            Nested.prototype.f64 = 0;
            Nested.prototype.flag = false;
            Nested.prototype.name = "";
            Nested.prototype.u8s = $util.emptyArray;
            Nested.prototype.u16s = $util.emptyArray;
            Nested.prototype.u32s = $util.emptyArray;
            Nested.prototype.u64s = $util.emptyArray;
            Nested.prototype.i8s = $util.emptyArray;
            Nested.prototype.i16s = $util.emptyArray;
            Nested.prototype.i32s = $util.emptyArray;
            Nested.prototype.i64s = $util.emptyArray;
            Nested.prototype.f32s = $util.emptyArray;
            Nested.prototype.f64s = $util.emptyArray;
            Nested.prototype.flags = $util.emptyArray;
            Nested.prototype.names = $util.emptyArray;
            Nested.prototype.counts = $util.emptyObject;
            Nested.prototype.note = null;
            Nested.prototype.inner = null;
            Nested.prototype.children = $util.emptyArray;

            let $oneOfFields;

            // Virtual OneOf for proto3 optional field
            $Object.defineProperty(Nested.prototype, "_note", {
                get: $util.oneOfGetter($oneOfFields = ["note"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            Nested.create = function(properties) {
                return new Nested(properties);
            };

            Nested.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.u8 != null && $Object.hasOwnProperty.call(m, "u8") && m.u8 !== 0)
                    w.uint32(8).uint32(m.u8);
                if (m.u16 != null && $Object.hasOwnProperty.call(m, "u16") && m.u16 !== 0)
                    w.uint32(16).uint32(m.u16);
                if (m.u32 != null && $Object.hasOwnProperty.call(m, "u32") && m.u32 !== 0)
                    w.uint32(24).uint32(m.u32);
                if (m.u64 != null && $Object.hasOwnProperty.call(m, "u64") && (typeof m.u64 === "object" ? m.u64.low || m.u64.high : m.u64 !== 0))
                    w.uint32(32).uint64(m.u64);
                if (m.i8 != null && $Object.hasOwnProperty.call(m, "i8") && m.i8 !== 0)
                    w.uint32(40).sint32(m.i8);
                if (m.i16 != null && $Object.hasOwnProperty.call(m, "i16") && m.i16 !== 0)
                    w.uint32(48).sint32(m.i16);
                if (m.i32 != null && $Object.hasOwnProperty.call(m, "i32") && m.i32 !== 0)
                    w.uint32(56).sint32(m.i32);
                if (m.i64 != null && $Object.hasOwnProperty.call(m, "i64") && (typeof m.i64 === "object" ? m.i64.low || m.i64.high : m.i64 !== 0))
                    w.uint32(64).sint64(m.i64);
                if (m.f32 != null && $Object.hasOwnProperty.call(m, "f32") && !$Object.is(m.f32, 0))
                    w.uint32(77).float(m.f32);
                if (m.f64 != null && $Object.hasOwnProperty.call(m, "f64") && !$Object.is(m.f64, 0))
                    w.uint32(81).double(m.f64);
                if (m.flag != null && $Object.hasOwnProperty.call(m, "flag") && m.flag !== false)
                    w.uint32(88).bool(m.flag);
                if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                    w.uint32(98).string(m.name);
                if (m.u8s != null && m.u8s.length) {
                    w.uint32(106).uint32s(m.u8s);
                }
                if (m.u16s != null && m.u16s.length) {
                    w.uint32(114).uint32s(m.u16s);
                }
                if (m.u32s != null && m.u32s.length) {
                    w.uint32(122).uint32s(m.u32s);
                }
                if (m.u64s != null && m.u64s.length) {
                    w.uint32(130).uint64s(m.u64s);
                }
                if (m.i8s != null && m.i8s.length) {
                    w.uint32(138).sint32s(m.i8s);
                }
                if (m.i16s != null && m.i16s.length) {
                    w.uint32(146).sint32s(m.i16s);
                }
                if (m.i32s != null && m.i32s.length) {
                    w.uint32(154).sint32s(m.i32s);
                }
                if (m.i64s != null && m.i64s.length) {
                    w.uint32(162).sint64s(m.i64s);
                }
                if (m.f32s != null && m.f32s.length) {
                    w.uint32(170).floats(m.f32s);
                }
                if (m.f64s != null && m.f64s.length) {
                    w.uint32(178).doubles(m.f64s);
                }
                if (m.flags != null && m.flags.length) {
                    w.uint32(186).bools(m.flags);
                }
                if (m.names != null && m.names.length) {
                    for (var i = 0; i < m.names.length; ++i)
                        w.uint32(194).string(m.names[i]);
                }
                if (m.counts != null && $Object.hasOwnProperty.call(m, "counts")) {
                    for (var ks = $Object.keys(m.counts), i = 0; i < ks.length; ++i) {
                        w.uint32(202).fork().uint32(10).string(ks[i]).uint32(16).sint64(m.counts[ks[i]]).ldelim();
                    }
                }
                if (m.note != null && $Object.hasOwnProperty.call(m, "note"))
                    w.uint32(210).string(m.note);
                if (m.inner != null && $Object.hasOwnProperty.call(m, "inner"))
                    $root.serbench.typed.Inner.encode(m.inner, w.uint32(218).fork(), q + 1).ldelim();
                if (m.children != null && m.children.length) {
                    for (var i = 0; i < m.children.length; ++i)
                        $root.serbench.typed.Nested.encode(m.children[i], w.uint32(226).fork(), q + 1).ldelim();
                }
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            Nested.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m, k, v;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.Nested();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 0)
                                break;
                            if (v = r.uint32())
                                m.u8 = v;
                            else
                                delete m.u8;
                            continue;
                        }
                    case 2: {
                            if (u !== 0)
                                break;
                            if (v = r.uint32())
                                m.u16 = v;
                            else
                                delete m.u16;
                            continue;
                        }
                    case 3: {
                            if (u !== 0)
                                break;
                            if (v = r.uint32())
                                m.u32 = v;
                            else
                                delete m.u32;
                            continue;
                        }
                    case 4: {
                            if (u !== 0)
                                break;
                            if (typeof (v = r.uint64()) === "object" ? v.low || v.high : v !== 0)
                                m.u64 = v;
                            else
                                delete m.u64;
                            continue;
                        }
                    case 5: {
                            if (u !== 0)
                                break;
                            if (v = r.sint32())
                                m.i8 = v;
                            else
                                delete m.i8;
                            continue;
                        }
                    case 6: {
                            if (u !== 0)
                                break;
                            if (v = r.sint32())
                                m.i16 = v;
                            else
                                delete m.i16;
                            continue;
                        }
                    case 7: {
                            if (u !== 0)
                                break;
                            if (v = r.sint32())
                                m.i32 = v;
                            else
                                delete m.i32;
                            continue;
                        }
                    case 8: {
                            if (u !== 0)
                                break;
                            if (typeof (v = r.sint64()) === "object" ? v.low || v.high : v !== 0)
                                m.i64 = v;
                            else
                                delete m.i64;
                            continue;
                        }
                    case 9: {
                            if (u !== 5)
                                break;
                            if (!$Object.is(v = r.float(), 0))
                                m.f32 = v;
                            else
                                delete m.f32;
                            continue;
                        }
                    case 10: {
                            if (u !== 1)
                                break;
                            if (!$Object.is(v = r.double(), 0))
                                m.f64 = v;
                            else
                                delete m.f64;
                            continue;
                        }
                    case 11: {
                            if (u !== 0)
                                break;
                            if (v = r.bool())
                                m.flag = v;
                            else
                                delete m.flag;
                            continue;
                        }
                    case 12: {
                            if (u !== 2)
                                break;
                            if ((v = r.stringVerify()).length)
                                m.name = v;
                            else
                                delete m.name;
                            continue;
                        }
                    case 13: {
                            if (u === 2) {
                                if (!(m.u8s && m.u8s.length))
                                    m.u8s = [];
                                r.uint32s(m.u8s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.u8s && m.u8s.length))
                                m.u8s = [];
                            m.u8s.push(r.uint32());
                            continue;
                        }
                    case 14: {
                            if (u === 2) {
                                if (!(m.u16s && m.u16s.length))
                                    m.u16s = [];
                                r.uint32s(m.u16s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.u16s && m.u16s.length))
                                m.u16s = [];
                            m.u16s.push(r.uint32());
                            continue;
                        }
                    case 15: {
                            if (u === 2) {
                                if (!(m.u32s && m.u32s.length))
                                    m.u32s = [];
                                r.uint32s(m.u32s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.u32s && m.u32s.length))
                                m.u32s = [];
                            m.u32s.push(r.uint32());
                            continue;
                        }
                    case 16: {
                            if (u === 2) {
                                if (!(m.u64s && m.u64s.length))
                                    m.u64s = [];
                                r.uint64s(m.u64s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.u64s && m.u64s.length))
                                m.u64s = [];
                            m.u64s.push(r.uint64());
                            continue;
                        }
                    case 17: {
                            if (u === 2) {
                                if (!(m.i8s && m.i8s.length))
                                    m.i8s = [];
                                r.sint32s(m.i8s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.i8s && m.i8s.length))
                                m.i8s = [];
                            m.i8s.push(r.sint32());
                            continue;
                        }
                    case 18: {
                            if (u === 2) {
                                if (!(m.i16s && m.i16s.length))
                                    m.i16s = [];
                                r.sint32s(m.i16s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.i16s && m.i16s.length))
                                m.i16s = [];
                            m.i16s.push(r.sint32());
                            continue;
                        }
                    case 19: {
                            if (u === 2) {
                                if (!(m.i32s && m.i32s.length))
                                    m.i32s = [];
                                r.sint32s(m.i32s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.i32s && m.i32s.length))
                                m.i32s = [];
                            m.i32s.push(r.sint32());
                            continue;
                        }
                    case 20: {
                            if (u === 2) {
                                if (!(m.i64s && m.i64s.length))
                                    m.i64s = [];
                                r.sint64s(m.i64s);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.i64s && m.i64s.length))
                                m.i64s = [];
                            m.i64s.push(r.sint64());
                            continue;
                        }
                    case 21: {
                            if (u === 2) {
                                if (!(m.f32s && m.f32s.length))
                                    m.f32s = [];
                                r.floats(m.f32s);
                                continue;
                            }
                            if (u !== 5)
                                break;
                            if (!(m.f32s && m.f32s.length))
                                m.f32s = [];
                            m.f32s.push(r.float());
                            continue;
                        }
                    case 22: {
                            if (u === 2) {
                                if (!(m.f64s && m.f64s.length))
                                    m.f64s = [];
                                r.doubles(m.f64s);
                                continue;
                            }
                            if (u !== 1)
                                break;
                            if (!(m.f64s && m.f64s.length))
                                m.f64s = [];
                            m.f64s.push(r.double());
                            continue;
                        }
                    case 23: {
                            if (u === 2) {
                                if (!(m.flags && m.flags.length))
                                    m.flags = [];
                                r.bools(m.flags);
                                continue;
                            }
                            if (u !== 0)
                                break;
                            if (!(m.flags && m.flags.length))
                                m.flags = [];
                            m.flags.push(r.bool());
                            continue;
                        }
                    case 24: {
                            if (u !== 2)
                                break;
                            if (!(m.names && m.names.length))
                                m.names = [];
                            m.names.push(r.stringVerify());
                            continue;
                        }
                    case 25: {
                            if (u !== 2)
                                break;
                            if (m.counts === $util.emptyObject)
                                m.counts = {};
                            var c2 = r.size() + r.pos;
                            if (c2 > r.len)
                                throw $RangeError("index out of range");
                            r.len = c2;
                            k = "";
                            v = $util.Long ? $util.Long.fromNumber(0, false) : 0;
                            while (r.pos < c2) {
                                var t2 = r.tag();
                                u = t2 & 7;
                                switch (t2 >>>= 3) {
                                case 1:
                                    if (u !== 2)
                                        break;
                                    k = r.stringVerify();
                                    continue;
                                case 2:
                                    if (u !== 0)
                                        break;
                                    v = r.sint64();
                                    continue;
                                }
                                r.skipType(u, q, t2);
                            }
                            if (r.pos !== c2)
                                throw $RangeError("index out of range");
                            r.len = c;
                            if (k === "__proto__")
                                $util.makeProp(m.counts, k);
                            m.counts[k] = v;
                            continue;
                        }
                    case 26: {
                            if (u !== 2)
                                break;
                            m.note = r.stringVerify();
                            m._note = "note";
                            continue;
                        }
                    case 27: {
                            if (u !== 2)
                                break;
                            m.inner = $root.serbench.typed.Inner.decode(r, r.size(), $undefined, q + 1, m.inner);
                            continue;
                        }
                    case 28: {
                            if (u !== 2)
                                break;
                            if (!(m.children && m.children.length))
                                m.children = [];
                            m.children.push($root.serbench.typed.Nested.decode(r, r.size(), $undefined, q + 1));
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            Nested.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.Nested";
            };

            return Nested;
        })();

        typed.ProductList = (function() {

            const ProductList = function (p) {
                this.records = [];
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            ProductList.prototype.records = $util.emptyArray;

            ProductList.create = function(properties) {
                return new ProductList(properties);
            };

            ProductList.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.records != null && m.records.length) {
                    for (var i = 0; i < m.records.length; ++i)
                        $root.serbench.typed.Product.encode(m.records[i], w.uint32(10).fork(), q + 1).ldelim();
                }
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            ProductList.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.ProductList();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 2)
                                break;
                            if (!(m.records && m.records.length))
                                m.records = [];
                            m.records.push($root.serbench.typed.Product.decode(r, r.size(), $undefined, q + 1));
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            ProductList.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.ProductList";
            };

            return ProductList;
        })();

        typed.TradeList = (function() {

            const TradeList = function (p) {
                this.records = [];
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            TradeList.prototype.records = $util.emptyArray;

            TradeList.create = function(properties) {
                return new TradeList(properties);
            };

            TradeList.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.records != null && m.records.length) {
                    for (var i = 0; i < m.records.length; ++i)
                        $root.serbench.typed.Trade.encode(m.records[i], w.uint32(10).fork(), q + 1).ldelim();
                }
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            TradeList.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.TradeList();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 2)
                                break;
                            if (!(m.records && m.records.length))
                                m.records = [];
                            m.records.push($root.serbench.typed.Trade.decode(r, r.size(), $undefined, q + 1));
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            TradeList.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.TradeList";
            };

            return TradeList;
        })();

        typed.NestedList = (function() {

            const NestedList = function (p) {
                this.records = [];
                if (p)
                    for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            };

            NestedList.prototype.records = $util.emptyArray;

            NestedList.create = function(properties) {
                return new NestedList(properties);
            };

            NestedList.encode = function (m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === $undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (m.records != null && m.records.length) {
                    for (var i = 0; i < m.records.length; ++i)
                        $root.serbench.typed.Nested.encode(m.records[i], w.uint32(10).fork(), q + 1).ldelim();
                }
                if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                    for (var i = 0; i < m.$unknowns.length; ++i)
                        w.raw(m.$unknowns[i]);
                return w;
            };

            NestedList.decode = function (r, l, z, q, g) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (q === $undefined)
                    q = 0;
                if (q > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                var c, m;
                if (l === $undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw $RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = g || new $root.serbench.typed.NestedList();
                while (r.pos < c) {
                    var s = r.pos;
                    var t = r.tag();
                    if (t === z) {
                        z = $undefined;
                        break;
                    }
                    var u = t & 7;
                    switch (t >>>= 3) {
                    case 1: {
                            if (u !== 2)
                                break;
                            if (!(m.records && m.records.length))
                                m.records = [];
                            m.records.push($root.serbench.typed.Nested.decode(r, r.size(), $undefined, q + 1));
                            continue;
                        }
                    }
                    r.skipType(u, q, t);
                    if (!r.discardUnknown) {
                        $util.makeProp(m, "$unknowns", false);
                        (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                    }
                }
                if (l !== $undefined) {
                    if (r.pos !== c)
                        throw $RangeError("index out of range");
                    r.len = l;
                }
                if (z !== $undefined)
                    throw $Error("missing end group");
                return m;
            };

            NestedList.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/serbench.typed.NestedList";
            };

            return NestedList;
        })();

        return typed;
    })();

    return serbench;
})();

export {
  $root as default
};
