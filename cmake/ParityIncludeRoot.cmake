# parity's headers are included as <parity/DIR/...>, in the build as installed: the build-tree
# include root <build>/include holds parity/DIR, a link to the source tree's DIR, for every top
# directory whose headers a source includes; every target in the build has it on its include
# path. Installed, the headers of PARITY_INSTALLED_HEADER_DIRS are <prefix>/include/parity/DIR
# (cmake/ParityInstall.cmake). Links only: the build never copies or writes a header there.
set(PARITY_HEADER_DIRS core oracles subjects properties ops families registry report cli fuzz bench)
set(PARITY_INSTALLED_HEADER_DIRS core oracles subjects properties ops families registry fuzz)
set(PARITY_INCLUDE_ROOT ${PROJECT_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${PARITY_INCLUDE_ROOT}/parity)
foreach(dir ${PARITY_HEADER_DIRS})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${PARITY_INCLUDE_ROOT}/parity/${dir} SYMBOLIC)
endforeach()
include_directories(${PARITY_INCLUDE_ROOT})
