;; wyhash's mum for lib/hash.mjs: the operands' halves at bytes 8..23 of the memory (M: ah, al, bh,
;; bl as little-endian u32), the result at bytes 0..7 (R: hi, lo). One 64x64 -> 128 multiply from
;; four 32x32 -> 64 products, the low and high halves XORed (spec/hash.md).
(module
  (memory (export "memory") 1 1)
  (func (export "mum")
    (local $ah i64) (local $al i64) (local $bh i64) (local $bl i64)
    (local $p0 i64) (local $p1 i64) (local $p2 i64) (local $p3 i64)
    (local $mid i64) (local $lo i64) (local $hi i64) (local $r i64)
    (local.set $ah (i64.load32_u (i32.const 8)))
    (local.set $al (i64.load32_u (i32.const 12)))
    (local.set $bh (i64.load32_u (i32.const 16)))
    (local.set $bl (i64.load32_u (i32.const 20)))
    (local.set $p0 (i64.mul (local.get $al) (local.get $bl)))
    (local.set $p1 (i64.mul (local.get $al) (local.get $bh)))
    (local.set $p2 (i64.mul (local.get $ah) (local.get $bl)))
    (local.set $p3 (i64.mul (local.get $ah) (local.get $bh)))
    (local.set $mid
      (i64.add
        (i64.add (i64.shr_u (local.get $p0) (i64.const 32)) (i64.and (local.get $p1) (i64.const 0xffffffff)))
        (i64.and (local.get $p2) (i64.const 0xffffffff))))
    (local.set $lo (i64.or (i64.and (local.get $p0) (i64.const 0xffffffff)) (i64.shl (local.get $mid) (i64.const 32))))
    (local.set $hi
      (i64.add
        (i64.add (local.get $p3) (i64.shr_u (local.get $p1) (i64.const 32)))
        (i64.add (i64.shr_u (local.get $p2) (i64.const 32)) (i64.shr_u (local.get $mid) (i64.const 32)))))
    (local.set $r (i64.xor (local.get $lo) (local.get $hi)))
    (i32.store (i32.const 0) (i32.wrap_i64 (i64.shr_u (local.get $r) (i64.const 32))))
    (i32.store (i32.const 4) (i32.wrap_i64 (local.get $r)))))
