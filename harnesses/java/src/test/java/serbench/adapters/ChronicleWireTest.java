package serbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the text modes of Chronicle Wire 2026.7 do with a string, which docs/libraries.md reports for
 * the RawWire and TextWire rows: if a later version changes it, this test says the docs must change.
 */
class ChronicleWireTest {
    @BeforeAll
    static void init() {
        ChronicleWire.init();
    }

    static String roundTrip(ChronicleWire.Kind k, String s) {
        Bytes<?> b = Bytes.allocateElasticDirect();
        try {
            Wire w = k.wire(b);
            w.getValueOut().text(s);
            return w.getValueIn().text();
        } catch (RuntimeException e) {
            return "threw " + e.getClass().getSimpleName();
        } finally {
            b.releaseLast();
        }
    }

    @Test
    void everyTextModeKeepsAsciiText() {
        for (ChronicleWire.Kind k : new ChronicleWire.Kind[] {
            ChronicleWire.Kind.RAW, ChronicleWire.Kind.RAW_8BIT, ChronicleWire.Kind.TEXT_8BIT
        }) {
            assertEquals("Hello World!", roundTrip(k, "Hello World!"), k.id);
        }
    }

    @Test
    void rawWireReadsNonAsciiTextInTheOtherEncodingThanItWrote() {
        // UTF-8 mode writes UTF-8 and reads each byte as a char: "é" comes back as "Ã©"
        assertEquals("h\u00c3\u00a9llo", roundTrip(ChronicleWire.Kind.RAW, "h\u00e9llo"));
        // 8-bit mode (RawWire's default) writes each char's low byte and reads UTF-8
        assertEquals("threw UTFDataFormatRuntimeException", roundTrip(ChronicleWire.Kind.RAW_8BIT, "h\u00e9llo"));
        assertNotEquals("\u4e16\u754c", roundTrip(ChronicleWire.Kind.RAW_8BIT, "\u4e16\u754c"));
    }

    @Test
    void textWireKeepsNonAsciiTextInItsEightBitModeToo() {
        assertEquals("h\u00e9llo \u4e16\u754c \ud83d\ude00", roundTrip(ChronicleWire.Kind.TEXT_8BIT, "h\u00e9llo \u4e16\u754c \ud83d\ude00"));
    }
}
