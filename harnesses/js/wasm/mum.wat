;; The WebAssembly half of lib/hash.mjs (spec/hash.md): wyhash's mum, one 64x64 -> 128 multiply from
;; four 32x32 -> 64 products with the low and high halves XORed, and the bytes hash over a buffer in
;; this module's memory. Memory: 64 fixed pages (4 MiB, never grown, so the JavaScript views of it
;; stay valid): bytes 0..7 the result R (hi, lo as little-endian u32), 8..23 mum's operands M (ah, al,
;; bh, bl), from 64 the scratch buffer whose first n bytes `bytes` hashes (16 zero bytes after them).
(module
  (memory (export "memory") 64 64)

  (func $mum64 (param $a i64) (param $b i64) (result i64)
    (local $al i64) (local $ah i64) (local $bl i64) (local $bh i64)
    (local $p0 i64) (local $p1 i64) (local $p2 i64) (local $p3 i64) (local $mid i64)
    (local.set $al (i64.and (local.get $a) (i64.const 0xffffffff)))
    (local.set $ah (i64.shr_u (local.get $a) (i64.const 32)))
    (local.set $bl (i64.and (local.get $b) (i64.const 0xffffffff)))
    (local.set $bh (i64.shr_u (local.get $b) (i64.const 32)))
    (local.set $p0 (i64.mul (local.get $al) (local.get $bl)))
    (local.set $p1 (i64.mul (local.get $al) (local.get $bh)))
    (local.set $p2 (i64.mul (local.get $ah) (local.get $bl)))
    (local.set $p3 (i64.mul (local.get $ah) (local.get $bh)))
    (local.set $mid
      (i64.add
        (i64.add (i64.shr_u (local.get $p0) (i64.const 32)) (i64.and (local.get $p1) (i64.const 0xffffffff)))
        (i64.and (local.get $p2) (i64.const 0xffffffff))))
    (i64.xor
      ;; the product's low 64 bits
      (i64.or (i64.and (local.get $p0) (i64.const 0xffffffff)) (i64.shl (local.get $mid) (i64.const 32)))
      ;; its high 64 bits
      (i64.add
        (i64.add (local.get $p3) (i64.shr_u (local.get $p1) (i64.const 32)))
        (i64.add (i64.shr_u (local.get $p2) (i64.const 32)) (i64.shr_u (local.get $mid) (i64.const 32))))))

  (func $result (param $r i64)
    (i32.store (i32.const 0) (i32.wrap_i64 (i64.shr_u (local.get $r) (i64.const 32))))
    (i32.store (i32.const 4) (i32.wrap_i64 (local.get $r))))

  ;; mum(M[0]:M[1], M[2]:M[3]) into R
  (func (export "mum")
    (call $result
      (call $mum64
        (i64.or (i64.shl (i64.load32_u (i32.const 8)) (i64.const 32)) (i64.load32_u (i32.const 12)))
        (i64.or (i64.shl (i64.load32_u (i32.const 16)) (i64.const 32)) (i64.load32_u (i32.const 20))))))

  ;; bytes(seed, scratch[0..n)) into R (spec/hash.md "Bytes"): two lanes over 32-byte blocks, then
  ;; 16-byte blocks; the words past n are the zeros the caller wrote
  (func (export "bytes") (param $sh i32) (param $sl i32) (param $n i32)
    (local $a i64) (local $c i64) (local $i i32) (local $p i32)
    (local.set $a
      (i64.xor
        (i64.or (i64.shl (i64.extend_i32_u (local.get $sh)) (i64.const 32)) (i64.extend_i32_u (local.get $sl)))
        (i64.extend_i32_u (local.get $n))))
    (block $done32
      (loop $blocks32
        (br_if $done32 (i32.lt_u (i32.sub (local.get $n) (local.get $i)) (i32.const 32)))
        (local.set $p (i32.add (i32.const 64) (local.get $i)))
        (local.set $a
          (call $mum64
            (i64.xor (i64.load (local.get $p)) (i64.const 0xe7037ed1a0b428db))
            (i64.xor (i64.xor (i64.load offset=8 (local.get $p)) (local.get $a)) (i64.const 0x8ebc6af09c88c6e3))))
        (local.set $c
          (call $mum64
            (i64.xor (i64.load offset=16 (local.get $p)) (i64.const 0x589965cc75374cc3))
            (i64.xor (i64.xor (i64.load offset=24 (local.get $p)) (local.get $c)) (i64.const 0xa0761d6478bd642f))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $blocks32)))
    (block $done16
      (loop $blocks16
        (br_if $done16 (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $p (i32.add (i32.const 64) (local.get $i)))
        (local.set $a
          (call $mum64
            (i64.xor (i64.load (local.get $p)) (i64.const 0xe7037ed1a0b428db))
            (i64.xor (i64.xor (i64.load offset=8 (local.get $p)) (local.get $a)) (i64.const 0x8ebc6af09c88c6e3))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks16)))
    (call $result (i64.xor (local.get $a) (local.get $c)))))
