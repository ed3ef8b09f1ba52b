# Hostile input for distlaunch: names, arguments, env values and paths that
# would inject code; oversized hostfiles; the job secret's exposure.
foreach(t input secret limits)
  distkit_integration_test(hostile_${t} hostile_${t}.sh)
endforeach()
