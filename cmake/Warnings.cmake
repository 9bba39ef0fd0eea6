# Every target in the project builds warning-free; a warning is a build error.
add_compile_options(-Wall -Wextra -Werror)
