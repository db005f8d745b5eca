# figure (src/figure): the SVG writer and the figures, in cmocka (label unit); the CLI's
# --format svg end to end is tests/cli/figures.sh, the explorer's F tests/tui/test_figure.sh.
if(TARGET napkin_figure)
  napkin_add_test(NAME figure SOURCES unit/test_figure.c LIBS napkin_figure LABELS unit)
endif()
# tests/cli/figures_render.sh needs rsvg-convert (librsvg2-bin): skipped where it is missing
if(TEST cli_figures_render)
  set_tests_properties(cli_figures_render PROPERTIES SKIP_RETURN_CODE 77)
endif()
# the library prints nowhere but the stream it is given, and never exits
if(TARGET napkin_figure)
  add_test(NAME figure_quiet COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/figure_quiet.sh $<TARGET_FILE:napkin_figure>)
  set_tests_properties(figure_quiet PROPERTIES LABELS unit ENVIRONMENT "NM=${CMAKE_NM}")
endif()
