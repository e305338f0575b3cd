# Typed records (spec/typed.md): sb_typed_bench, the typed rows and the typed baselines. Included
# from CMakeLists.txt after the schemaless benches and before benches.tsv is written (it adds to
# SB_MANIFEST). typed/typed_bench.h describes what a typed bench source implements.

# The typed half of the harness (records, loader, typed hash, typed dispatch), compiled once and
# linked as objects into every typed executable: sb::main finds the typed dispatch through a weak
# symbol, which a static archive would never pull in.
add_library(sbtyped OBJECT typed/records.cpp typed/typed_main.cpp)
target_link_libraries(sbtyped PUBLIC sbcommon)
target_include_directories(sbtyped PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/typed)

set(SB_TYPED_MANIFEST "")
# sb_typed_bench(ID SOURCE FORMATS <wire format id>... [PKG <debian -dev package>] [VERSION <v>]
#                [VARIANT n] [LIBS ...] [SHARED <.so>...] [LINK <how linked>] [DEFS ...]
#                [SOURCES <extra sources>...] [INCLUDES <dirs>...] [DEPENDS <targets>...] [BASELINE])
# SOURCE and SOURCES are relative to harnesses/native (or absolute: generated code in the build dir).
function(sb_typed_bench id src)
  cmake_parse_arguments(B "BASELINE" "VARIANT;PKG;LINK;VERSION"
                        "FORMATS;LIBS;SHARED;DEFS;SOURCES;INCLUDES;DEPENDS" ${ARGN})
  if(NOT B_FORMATS)
    message(FATAL_ERROR "sb_typed_bench(${id}): FORMATS is required")
  endif()
  if(B_VERSION)
    set(ver "${B_VERSION}")
  elseif(B_PKG)
    sb_pkg_version(${B_PKG} ver)
  else()
    set(ver "1")
  endif()
  if(NOT B_VARIANT)
    set(B_VARIANT 0)
  endif()
  add_executable(bench-${id} ${src} ${B_SOURCES} $<TARGET_OBJECTS:sbtyped>)
  target_link_libraries(bench-${id} PRIVATE sbcommon ${B_LIBS})
  target_include_directories(bench-${id} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/typed ${B_INCLUDES})
  target_compile_definitions(bench-${id} PRIVATE SB_VARIANT=${B_VARIANT} "SB_VERSION=\"${ver}\"" ${B_DEFS})
  if(B_DEPENDS)
    add_dependencies(bench-${id} ${B_DEPENDS})
  endif()
  string(JOIN "," shared ${B_SHARED})
  string(JOIN "," formats ${B_FORMATS})
  if(NOT B_LINK)
    if(B_SHARED)
      set(B_LINK "shared object only: Debian ships no static archive")
    elseif(B_LIBS)
      set(B_LINK "static archive linked")
    else()
      set(B_LINK "header-only")
    endif()
  endif()
  if(B_BASELINE)
    set(kind baseline)
  else()
    set(kind bench)
    # typed.tsv: id, formats; the typed baselines read it (which rows make each format's bytes).
    set(SB_TYPED_MANIFEST "${SB_TYPED_MANIFEST}${id}\t${formats}\n" PARENT_SCOPE)
  endif()
  if(B_LIBS AND NOT B_BASELINE)
    set(build "debian -O2")
  else()
    set(build "harness ${SB_FLAGS}")
  endif()
  set(SB_MANIFEST "${SB_MANIFEST}${id}\t${kind}\t${shared}\t${B_LINK}\t${build}\n" PARENT_SCOPE)
endfunction()

# --- rows with hand-written schemas (one line each) -------------------------------------------------
sb_typed_bench(nlohmann-typed typed/nlohmann.cpp FORMATS json PKG nlohmann-json3-dev)
sb_typed_bench(msgpack-cxx-typed typed/msgpack_cxx.cpp FORMATS msgpack PKG libmsgpack-cxx-dev DEFS MSGPACK_NO_BOOST)
sb_typed_bench(rapidjson-typed typed/rapidjson.cpp FORMATS json PKG rapidjson-dev)
sb_typed_bench(cereal-binary typed/cereal.cpp FORMATS cereal-binary PKG libcereal-dev VARIANT 1)
sb_typed_bench(cereal-json typed/cereal.cpp FORMATS json PKG libcereal-dev VARIANT 2)

# --- rows with generated code (protobuf, FlatBuffers, Cap'n Proto, Avro, Thrift) ----------------------
include(${CMAKE_CURRENT_SOURCE_DIR}/typed/codegen.cmake OPTIONAL)

# --- the typed baselines (after every row: they ask the rows of typed.tsv for the wire bytes) --------
sb_typed_bench(hash-data-typed typed/baselines_typed.cpp FORMATS typed BASELINE DEFS SB_HASH_DATA_TYPED)
sb_typed_bench(hash-typed typed/baselines_typed.cpp FORMATS typed BASELINE)
file(WRITE ${CMAKE_BINARY_DIR}/typed.tsv "${SB_TYPED_MANIFEST}")
