# The generated code of the native typed rows (typed/gen/, made by regen-schemas.sh and committed)
# and the libraries it runs on. One OBJECT library per schema compiler, carrying the library as a
# usage requirement, so a row links `sb_gen_<lib>` and nothing else (FlatBuffers is header-only: its
# rows add gen/ to their include path). Debian's static archives are linked (every package here ships
# one), so a row's code size counts the library's code, not only the generated code.
set(SB_GEN ${CMAKE_CURRENT_LIST_DIR}/gen)
set(SB_LIBDIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
find_package(Threads REQUIRED)

# Generated sources are the generators' code, not ours: their warnings (unused parameters in
# protoc's and thrift's output) are not the harness's to fix, so they build with -w.
function(sb_gen_library name)
  cmake_parse_arguments(G "" "" "SOURCES;LIBS" ${ARGN})
  if(G_SOURCES)
    add_library(${name} OBJECT ${G_SOURCES})
    target_compile_options(${name} PRIVATE -w)
    set(scope PUBLIC)
  else()  # a library without generated sources (Avro C)
    add_library(${name} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${name} SYSTEM ${scope} ${SB_GEN})
  target_link_libraries(${name} ${scope} ${G_LIBS})
endfunction()

# Protocol Buffers: protoc 3.21.12 --cpp_out (typed.pb.cc), libprotobuf.a (full runtime, not -lite:
# the generated code uses the reflection-based runtime by default, optimize_for = SPEED).
sb_gen_library(sb_gen_protobuf SOURCES ${SB_GEN}/typed.pb.cc
               LIBS ${SB_LIBDIR}/libprotobuf.a ${SB_LIBDIR}/libz.a Threads::Threads)
# FlatBuffers: flatc 2.0.8 --cpp, header-only (builder, verifier and accessors are all in the
# headers; libflatbuffers.a holds the schema parser and reflection, which the rows do not use): its
# rows only add ${SB_GEN} to their include path.
# Cap'n Proto: capnp 0.9.2 compile -oc++ (typed.capnp.c++), libcapnp.a + libkj.a.
sb_gen_library(sb_gen_capnp SOURCES ${SB_GEN}/typed.capnp.c++
               LIBS ${SB_LIBDIR}/libcapnp.a ${SB_LIBDIR}/libkj.a Threads::Threads)
# Thrift: thrift 0.17.0 --gen cpp (typed_types.cpp), libthrift.a (its headers use Boost's, from the
# system's libboost1.74-dev).
sb_gen_library(sb_gen_thrift SOURCES ${SB_GEN}/typed_types.cpp
               LIBS ${SB_LIBDIR}/libthrift.a Threads::Threads)
# Avro C (libavro 1.11.1): no code generator; typed_avsc.h holds spec/schemas/typed.avsc as a string.
# libavro.a needs jansson (its schema JSON parser), zlib and liblzma (its file codecs).
sb_gen_library(sb_gen_avro
               LIBS ${SB_LIBDIR}/libavro.a ${SB_LIBDIR}/libjansson.a ${SB_LIBDIR}/libz.a ${SB_LIBDIR}/liblzma.a)

# --- the rows (one line each; typed_bench.h) ---------------------------------------------------------
set(SB_GEN_LINK "static archive linked, the generated code compiled by this build")
sb_typed_bench(protobuf typed/protobuf.cpp FORMATS protobuf PKG libprotobuf-dev VARIANT 1 LIBS sb_gen_protobuf
               LINK ${SB_GEN_LINK})
sb_typed_bench(protobuf-convert typed/protobuf.cpp FORMATS protobuf PKG libprotobuf-dev VARIANT 2
               LIBS sb_gen_protobuf LINK ${SB_GEN_LINK})
# header-only: no LIBS, so the row's `build` says this build compiled all of its code
sb_typed_bench(flatbuffers typed/flatbuffers.cpp FORMATS flatbuffers PKG libflatbuffers-dev VARIANT 1 INCLUDES ${SB_GEN})
sb_typed_bench(flatbuffers-unchecked typed/flatbuffers.cpp FORMATS flatbuffers PKG libflatbuffers-dev VARIANT 2
               INCLUDES ${SB_GEN})
sb_typed_bench(capnp typed/capnp.cpp FORMATS capnp PKG libcapnp-dev LIBS sb_gen_capnp LINK ${SB_GEN_LINK})
sb_typed_bench(thrift typed/thrift.cpp FORMATS thrift-compact thrift-binary PKG libthrift-dev LIBS sb_gen_thrift
               LINK ${SB_GEN_LINK})
sb_typed_bench(avro-c typed/avro.cpp FORMATS avro PKG libavro-dev LIBS sb_gen_avro)

# Every row above on product, trade and nested (its check against the hash the test computes from the
# generated records), the one-record codecs on trade, and --output-file.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME typed-codegen COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tests/typed_codegen.py
                                    $<TARGET_FILE:serbench-native> ${SB_REPO})
set_tests_properties(typed-codegen PROPERTIES TIMEOUT 600)
