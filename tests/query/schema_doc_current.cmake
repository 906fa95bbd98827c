# Fails when DOC differs from what `PARALLAX query --schema` prints (then:
# build/src/cli/parallax query --schema > docs/query-tables.md).
execute_process(COMMAND ${PARALLAX} query --schema OUTPUT_VARIABLE printed RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "parallax query --schema failed (${rc})")
endif()
file(READ ${DOC} kept)
if(NOT printed STREQUAL kept)
  message(FATAL_ERROR "${DOC} is stale: run `parallax query --schema > docs/query-tables.md`")
endif()
