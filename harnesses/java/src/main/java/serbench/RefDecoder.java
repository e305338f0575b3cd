package serbench;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's reference decoders (JSON, MessagePack, CBOR, BSON) into its own tree
 * ({@link Model}). Strict, as spec/data-model.md and the conformance set (vectors/conformance)
 * say: one document whose root is a map, no trailing bytes, keys are strings and unique, strings
 * are valid UTF-8 without NUL, integers fit int64 or uint64, floats are finite, no type outside
 * the data model. Iterative with explicit stacks (no depth limit), and every read checks the end
 * of the input, so no input makes them crash, recurse or allocate more than the input's size. A
 * rejection here is the input's (exit 6), never a library's.
 */
public final class RefDecoder {
    private RefDecoder() {}

    public static final class Rejected extends Exception {
        Rejected(String msg) {
            super(msg);
        }
    }

    public static Object decode(String fmt, byte[] data) throws Rejected {
        Object root = switch (fmt) {
            case "json", "json-pretty" -> new Json(data).parse();
            case "msgpack" -> new Counted(data, false).parse();
            case "cbor" -> new Counted(data, true).parse();
            case "bson" -> bson(data);
            default -> throw new Rejected("no reference decoder for format " + fmt);
        };
        if (!(root instanceof Map)) throw new Rejected("the root is not a map (spec/data-model.md: the root of every document is a map)");
        return root;
    }

    /** A string or key of the data model: valid UTF-8 with no NUL (spec/data-model.md). */
    static String text(byte[] b, int off, int len) throws Rejected {
        for (int k = off; k < off + len; k++) {
            if (b[k] == 0) throw new Rejected("a NUL inside a string at byte " + k + " (outside the data model)");
        }
        return utf8(b, off, len);
    }

    static String utf8(byte[] b, int off, int len) throws Rejected {
        try {
            CharBuffer cb = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, off, len));
            return cb.toString();
        } catch (CharacterCodingException e) {
            throw new Rejected("invalid UTF-8 in a string at byte " + off);
        }
    }

    /** Collects values into containers with an explicit stack (shared by the decoders). */
    private static final class Builder {
        final ArrayList<Object> containers = new ArrayList<>();
        final ArrayList<String> keys = new ArrayList<>(); // pending key per map level (null: expect one)
        final ArrayList<long[]> remaining = new ArrayList<>(); // items left per level (-1: unknown)
        Object root;
        boolean done;

        boolean open() {
            return !containers.isEmpty();
        }

        boolean expectingKey() {
            int d = containers.size() - 1;
            return containers.get(d) instanceof Map && keys.get(d) == null;
        }

        void push(Object container, long items) throws Rejected {
            containers.add(container);
            keys.add(null);
            remaining.add(new long[] {items});
            if (items == 0) close();
        }

        /** Closes the innermost container and delivers it to its parent. */
        void close() throws Rejected {
            int d = containers.size() - 1;
            Object c = containers.remove(d);
            keys.remove(d);
            remaining.remove(d);
            value(c);
        }

        /** Adds a value to the innermost container; a counted container it fills is closed and
         *  added to its parent in turn, in this loop (never by recursion). */
        void value(Object v) throws Rejected {
            while (true) {
                if (containers.isEmpty()) {
                    root = v;
                    done = true;
                    return;
                }
                int d = containers.size() - 1;
                Object c = containers.get(d);
                if (c instanceof Map) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = (Map<String, Object>) c;
                    String k = keys.get(d);
                    if (k == null) {
                        if (!(v instanceof String s)) throw new Rejected("a map key is not a string");
                        keys.set(d, s);
                        return;
                    }
                    if (m.containsKey(k)) throw new Rejected("duplicate key " + quote(k));
                    m.put(k, v);
                    keys.set(d, null);
                } else {
                    @SuppressWarnings("unchecked")
                    List<Object> l = (List<Object>) c;
                    l.add(v);
                }
                long[] r = remaining.get(d);
                if (r[0] > 0 && --r[0] == 0) {
                    v = containers.remove(d);
                    keys.remove(d);
                    remaining.remove(d);
                    continue;
                }
                return;
            }
        }
    }

    static String quote(String s) {
        return s.length() > 40 ? "\"" + s.substring(0, 40) + "...\"" : "\"" + s + "\"";
    }

    // --- MessagePack and CBOR: counted containers ----------------------------------------------

    private static final class Counted {
        final byte[] b;
        final boolean cbor;
        int pos;

        Counted(byte[] b, boolean cbor) {
            this.b = b;
            this.cbor = cbor;
        }

        int u8() throws Rejected {
            if (pos >= b.length) throw new Rejected("truncated input at byte " + pos);
            return b[pos++] & 0xFF;
        }

        long be(int n) throws Rejected {
            if (b.length - pos < n) throw new Rejected("truncated input at byte " + pos);
            long v = 0;
            for (int i = 0; i < n; i++) v = (v << 8) | (b[pos++] & 0xFF);
            return v;
        }

        int length(long n) throws Rejected {
            if (n < 0 || n > b.length - pos) throw new Rejected("length " + Long.toUnsignedString(n) + " beyond the input at byte " + pos);
            return (int) n;
        }

        /** Items of a container: each takes at least one byte, so a count beyond the input is refused. */
        long items(long n, int per) throws Rejected {
            if (n < 0 || n > (long) (b.length - pos) / per + 1) throw new Rejected("count " + Long.toUnsignedString(n) + " beyond the input at byte " + pos);
            return n;
        }

        Object parse() throws Rejected {
            Builder bl = new Builder();
            while (!bl.done) {
                if (cbor) cborItem(bl);
                else msgpackItem(bl);
            }
            if (pos != b.length) throw new Rejected("trailing bytes after the document at byte " + pos);
            return bl.root;
        }

        String str(int n) throws Rejected {
            int len = length(n);
            String s = text(b, pos, len);
            pos += len;
            return s;
        }

        byte[] bin(long n) throws Rejected {
            int len = length(n);
            byte[] out = java.util.Arrays.copyOfRange(b, pos, pos + len);
            pos += len;
            return out;
        }

        static Object integer(long v) {
            return v >= 0 ? (Object) v : new Model.U64(v);
        }

        void msgpackItem(Builder bl) throws Rejected {
            int t = u8();
            if (t <= 0x7F) bl.value((long) t);
            else if (t >= 0xE0) bl.value((long) (byte) t);
            else if (t >= 0x80 && t <= 0x8F) bl.push(new LinkedHashMap<>(), items(t & 0x0F, 2));
            else if (t >= 0x90 && t <= 0x9F) bl.push(new ArrayList<>(), items(t & 0x0F, 1));
            else if (t >= 0xA0 && t <= 0xBF) bl.value(str(t & 0x1F));
            else {
                switch (t) {
                    case 0xC0 -> bl.value(null);
                    case 0xC2 -> bl.value(Boolean.FALSE);
                    case 0xC3 -> bl.value(Boolean.TRUE);
                    case 0xC4 -> bl.value(bin(be(1)));
                    case 0xC5 -> bl.value(bin(be(2)));
                    case 0xC6 -> bl.value(bin(be(4)));
                    case 0xCA -> bl.value(finite(Float.intBitsToFloat((int) be(4))));
                    case 0xCB -> bl.value(finite(Double.longBitsToDouble(be(8))));
                    case 0xCC -> bl.value(be(1));
                    case 0xCD -> bl.value(be(2));
                    case 0xCE -> bl.value(be(4));
                    case 0xCF -> bl.value(integer(be(8)));
                    case 0xD0 -> bl.value((long) (byte) be(1));
                    case 0xD1 -> bl.value((long) (short) be(2));
                    case 0xD2 -> bl.value((long) (int) be(4));
                    case 0xD3 -> bl.value(be(8));
                    case 0xD9 -> bl.value(str((int) be(1)));
                    case 0xDA -> bl.value(str((int) be(2)));
                    case 0xDB -> bl.value(str(length(be(4))));
                    case 0xDC -> bl.push(new ArrayList<>(), items(be(2), 1));
                    case 0xDD -> bl.push(new ArrayList<>(), items(be(4), 1));
                    case 0xDE -> bl.push(new LinkedHashMap<>(), items(be(2), 2));
                    case 0xDF -> bl.push(new LinkedHashMap<>(), items(be(4), 2));
                    default -> throw new Rejected(String.format("MessagePack type 0x%02x is outside the data model (at byte %d)", t, pos - 1));
                }
            }
        }

        static Double finite(double d) throws Rejected {
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new Rejected("a float that is not finite");
            return d;
        }

        long arg(int info) throws Rejected {
            if (info < 24) return info;
            return switch (info) {
                case 24 -> be(1);
                case 25 -> be(2);
                case 26 -> be(4);
                case 27 -> be(8);
                default -> throw new Rejected("CBOR additional info " + info + " (indefinite lengths are not read by the reference decoder) at byte " + (pos - 1));
            };
        }

        void cborItem(Builder bl) throws Rejected {
            int ib = u8();
            int major = ib >> 5, info = ib & 0x1F;
            if (ib == 0xFF) {
                // the "break" that ends an indefinite-length array or map
                int d = bl.containers.size() - 1;
                if (d < 0 || bl.remaining.get(d)[0] != -1 || bl.keys.get(d) != null) throw new Rejected("unexpected CBOR break at byte " + (pos - 1));
                bl.close();
                return;
            }
            if (info == 31 && (major == 2 || major == 3)) {
                bl.value(chunks(major));
                return;
            }
            if (info == 31 && (major == 4 || major == 5)) {
                bl.push(major == 4 ? new ArrayList<>() : new LinkedHashMap<>(), -1);
                return;
            }
            if (major == 7) {
                switch (info) {
                    case 20 -> bl.value(Boolean.FALSE);
                    case 21 -> bl.value(Boolean.TRUE);
                    case 22 -> bl.value(null);
                    case 25 -> bl.value(finite(half((int) be(2))));
                    case 26 -> bl.value(finite(Float.intBitsToFloat((int) be(4))));
                    case 27 -> bl.value(finite(Double.longBitsToDouble(be(8))));
                    default -> throw new Rejected("CBOR simple value " + info + " is outside the data model");
                }
                return;
            }
            long v = arg(info);
            switch (major) {
                case 0 -> bl.value(integer(v));
                case 1 -> {
                    if (v < 0) throw new Rejected("CBOR negative integer below INT64_MIN");
                    bl.value(-1 - v);
                }
                case 2 -> bl.value(bin(v));
                case 3 -> bl.value(str(length(v)));
                case 4 -> bl.push(new ArrayList<>(), items(v, 1));
                case 5 -> bl.push(new LinkedHashMap<>(), items(v, 2));
                default -> throw new Rejected("CBOR tags are outside the data model");
            }
        }

        /** An indefinite-length byte or text string: definite chunks of the same major type, then a break. */
        Object chunks(int major) throws Rejected {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            while (true) {
                int ib = u8();
                if (ib == 0xFF) break;
                if (ib >> 5 != major || (ib & 0x1F) == 31) throw new Rejected("bad chunk in an indefinite-length CBOR string at byte " + (pos - 1));
                int len = length(arg(ib & 0x1F));
                out.write(b, pos, len);
                pos += len;
            }
            byte[] all = out.toByteArray();
            return major == 2 ? all : text(all, 0, all.length);
        }

        static double half(int h) {
            int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
            double v = exp == 0 ? mant * Math.pow(2, -24) : exp != 31 ? (mant + 1024) * Math.pow(2, exp - 25) : mant == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
            return (h & 0x8000) != 0 ? -v : v;
        }
    }

    // --- BSON ------------------------------------------------------------------------------------

    static Object bson(byte[] b) throws Rejected {
        // frames: the container, its end offset, and the pending key
        ArrayList<Object> conts = new ArrayList<>();
        ArrayList<Integer> ends = new ArrayList<>();
        ArrayList<String> names = new ArrayList<>();
        int[] pos = {0};
        int len = bsonLen(b, pos);
        if (len != b.length) throw new Rejected("the document's length field (" + len + ") is not the file's size (" + b.length + ")");
        conts.add(new LinkedHashMap<String, Object>());
        ends.add(len);
        names.add(null);
        while (true) {
            int d = conts.size() - 1;
            int t = bsonU8(b, pos, ends.get(d));
            if (t == 0) {
                if (pos[0] != ends.get(d)) throw new Rejected("a BSON document ends before its length at byte " + pos[0]);
                Object done = conts.remove(d);
                ends.remove(d);
                names.remove(d);
                if (d == 0) return done;
                bsonPut(conts.get(d - 1), names.get(d - 1), done);
                continue;
            }
            int end = ends.get(d);
            int start = pos[0];
            while (true) {
                if (pos[0] >= end) throw new Rejected("truncated BSON key at byte " + start);
                if (b[pos[0]++] == 0) break;
            }
            String name = utf8(b, start, pos[0] - 1 - start);
            Object c = conts.get(d);
            // an array's keys are its indexes, "0", "1", ... in order (bsonspec.org)
            if (c instanceof List<?> l && !name.equals(Integer.toString(l.size()))) throw new Rejected("BSON array key " + quote(name) + " is not its index " + l.size() + " at byte " + start);
            switch (t) {
                case 0x01 -> bsonPut(c, name, Counted.finite(Double.longBitsToDouble(Long.reverseBytes(le(b, pos, 8, end)))));
                case 0x02 -> {
                    int n = (int) Integer.reverseBytes((int) le(b, pos, 4, end));
                    if (n < 1 || n > end - pos[0] || b[pos[0] + n - 1] != 0) throw new Rejected("bad BSON string length at byte " + pos[0]);
                    bsonPut(c, name, text(b, pos[0], n - 1));
                    pos[0] += n;
                }
                case 0x03, 0x04 -> {
                    int at = pos[0];
                    int n = bsonLen(b, pos);
                    if (n < 5 || n > end - at) throw new Rejected("bad BSON document length at byte " + at);
                    names.set(d, name);
                    conts.add(t == 0x03 ? new LinkedHashMap<String, Object>() : new ArrayList<Object>());
                    ends.add(at + n);
                    names.add(null);
                }
                case 0x05 -> {
                    int n = Integer.reverseBytes((int) le(b, pos, 4, end));
                    if (n < 0 || (long) n + 1 > end - pos[0]) throw new Rejected("bad BSON binary length at byte " + pos[0]);
                    int subtype = b[pos[0]++] & 0xFF, from = pos[0];
                    if (subtype == 0x02) {
                        // the old binary: an int32 inner length, the binary's length minus 4, then the value
                        if (n < 4) throw new Rejected("BSON binary subtype 0x02 of " + n + " bytes has no room for its inner length at byte " + from);
                        int inner = Integer.reverseBytes((int) le(b, pos, 4, end));
                        if (inner != n - 4) throw new Rejected("BSON binary subtype 0x02's inner length " + inner + " is not its length minus 4 (" + (n - 4) + ") at byte " + from);
                    }
                    bsonPut(c, name, java.util.Arrays.copyOfRange(b, pos[0], from + n));
                    pos[0] = from + n;
                }
                case 0x08 -> {
                    int v = bsonU8(b, pos, end);
                    if (v > 1) throw new Rejected("bad BSON boolean at byte " + (pos[0] - 1));
                    bsonPut(c, name, v == 1);
                }
                case 0x0A -> bsonPut(c, name, null);
                case 0x10 -> bsonPut(c, name, (long) Integer.reverseBytes((int) le(b, pos, 4, end)));
                case 0x12 -> bsonPut(c, name, Long.reverseBytes(le(b, pos, 8, end)));
                default -> throw new Rejected(String.format("BSON type 0x%02x is outside the data model", t));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void bsonPut(Object c, String name, Object v) throws Rejected {
        if (c instanceof Map) {
            Map<String, Object> m = (Map<String, Object>) c;
            if (m.containsKey(name)) throw new Rejected("duplicate key " + quote(name));
            m.put(name, v);
        } else {
            ((List<Object>) c).add(v);
        }
    }

    private static int bsonU8(byte[] b, int[] pos, int end) throws Rejected {
        if (pos[0] >= end) throw new Rejected("truncated BSON at byte " + pos[0]);
        return b[pos[0]++] & 0xFF;
    }

    /** n big-endian-assembled bytes (callers reverse them: BSON is little-endian). */
    private static long le(byte[] b, int[] pos, int n, int end) throws Rejected {
        if (end - pos[0] < n) throw new Rejected("truncated BSON at byte " + pos[0]);
        long v = 0;
        for (int i = 0; i < n; i++) v = (v << 8) | (b[pos[0]++] & 0xFF);
        return v;
    }

    private static int bsonLen(byte[] b, int[] pos) throws Rejected {
        return Integer.reverseBytes((int) le(b, pos, 4, b.length));
    }

    // --- JSON ------------------------------------------------------------------------------------

    private static final class Json {
        final String s;
        int i;

        Json(byte[] data) throws Rejected {
            this.s = utf8(data, 0, data.length);
        }

        Rejected err(String what) {
            int line = 1, col = 1;
            for (int k = 0; k < i && k < s.length(); k++) {
                if (s.charAt(k) == '\n') {
                    line++;
                    col = 1;
                } else col++;
            }
            return new Rejected("JSON: " + what + " at line " + line + " column " + col);
        }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\n' || c == '\r' || c == '\t') i++;
                else break;
            }
        }

        char peek() throws Rejected {
            ws();
            if (i >= s.length()) throw err("unexpected end of input");
            return s.charAt(i);
        }

        Object parse() throws Rejected {
            Builder bl = new Builder();
            // after a value inside a container: expect ',' or the closing bracket
            boolean afterValue = false;
            while (true) {
                if (bl.open()) {
                    int d = bl.containers.size() - 1;
                    boolean map = bl.containers.get(d) instanceof Map;
                    char c = peek();
                    if (afterValue) {
                        if (c == ',') {
                            i++;
                            afterValue = false;
                            if (map) {
                                if (peek() != '"') throw err("expected a key");
                                bl.value(string());
                                if (peek() != ':') throw err("expected ':'");
                                i++;
                            }
                        } else if (c == (map ? '}' : ']')) {
                            i++;
                            bl.close();
                            afterValue = bl.open();
                            if (!bl.open()) break;
                            continue;
                        } else throw err("expected ',' or a closing bracket");
                    }
                }
                char c = peek();
                switch (c) {
                    case '{' -> {
                        i++;
                        bl.containers.add(new LinkedHashMap<String, Object>());
                        bl.keys.add(null);
                        bl.remaining.add(new long[] {-1});
                        if (peek() == '}') {
                            i++;
                            bl.close();
                            break;
                        }
                        if (peek() != '"') throw err("expected a key");
                        bl.value(string());
                        if (peek() != ':') throw err("expected ':'");
                        i++;
                        continue;
                    }
                    case '[' -> {
                        i++;
                        bl.containers.add(new ArrayList<Object>());
                        bl.keys.add(null);
                        bl.remaining.add(new long[] {-1});
                        if (peek() == ']') {
                            i++;
                            bl.close();
                            break;
                        }
                        continue;
                    }
                    case '"' -> bl.value(string());
                    case 't' -> bl.value(literal("true", Boolean.TRUE));
                    case 'f' -> bl.value(literal("false", Boolean.FALSE));
                    case 'n' -> bl.value(literal("null", null));
                    default -> bl.value(number());
                }
                if (!bl.open()) break;
                afterValue = true;
            }
            ws();
            if (i != s.length()) throw err("trailing characters after the document");
            return bl.root;
        }

        Object literal(String word, Object v) throws Rejected {
            if (!s.startsWith(word, i)) throw err("invalid literal");
            i += word.length();
            return v;
        }

        Object number() throws Rejected {
            int start = i;
            if (i < s.length() && s.charAt(i) == '-') i++;
            int digits = i;
            while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) i++;
            if (i == digits) throw err("invalid value");
            if (s.charAt(digits) == '0' && i - digits > 1) throw err("leading zero in a number");
            boolean isFloat = false;
            if (i < s.length() && s.charAt(i) == '.') {
                isFloat = true;
                i++;
                int f = i;
                while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
                if (i == f) throw err("invalid number");
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                isFloat = true;
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
                int e = i;
                while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
                if (i == e) throw err("invalid number");
            }
            String t = s.substring(start, i);
            if (isFloat) {
                double d = Double.parseDouble(t);
                if (Double.isInfinite(d)) throw err("number overflows a double");
                return d;
            }
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                try {
                    if (t.charAt(0) != '-') return new Model.U64(Long.parseUnsignedLong(t));
                } catch (NumberFormatException ignored) {
                    // falls through to the rejection
                }
                throw err("integer outside int64 and uint64");
            }
        }

        String string() throws Rejected {
            i++; // opening quote
            StringBuilder sb = null;
            int start = i;
            while (true) {
                if (i >= s.length()) throw err("unterminated string");
                char c = s.charAt(i);
                if (c == '"') {
                    String out = sb == null ? s.substring(start, i) : sb.append(s, start, i).toString();
                    i++;
                    return out;
                }
                if (c < 0x20) throw err("control character in a string");
                if (Character.isSurrogate(c)) {
                    // the UTF-8 decoder already refused lone surrogates in raw text
                    i++;
                    continue;
                }
                if (c == '\\') {
                    if (sb == null) sb = new StringBuilder();
                    sb.append(s, start, i);
                    i++;
                    if (i >= s.length()) throw err("unterminated escape");
                    char e = s.charAt(i++);
                    switch (e) {
                        case '"' -> sb.append('"');
                        case '\\' -> sb.append('\\');
                        case '/' -> sb.append('/');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'n' -> sb.append('\n');
                        case 'r' -> sb.append('\r');
                        case 't' -> sb.append('\t');
                        case 'u' -> {
                            char u = hex4();
                            if (Character.isHighSurrogate(u)) {
                                if (!s.startsWith("\\u", i)) throw err("lone surrogate escape");
                                i += 2;
                                char lo = hex4();
                                if (!Character.isLowSurrogate(lo)) throw err("lone surrogate escape");
                                sb.append(u).append(lo);
                            } else if (Character.isLowSurrogate(u)) {
                                throw err("lone surrogate escape");
                            } else if (u == 0) {
                                throw err("the escape \\u0000: a NUL inside a string (outside the data model)");
                            } else sb.append(u);
                        }
                        default -> throw err("invalid escape");
                    }
                    start = i;
                    continue;
                }
                i++;
            }
        }

        char hex4() throws Rejected {
            if (i + 4 > s.length()) throw err("truncated \\u escape");
            int v = 0;
            for (int k = 0; k < 4; k++) {
                int dgt = Character.digit(s.charAt(i++), 16);
                if (dgt < 0) throw err("invalid \\u escape");
                v = v * 16 + dgt;
            }
            return (char) v;
        }
    }
}
