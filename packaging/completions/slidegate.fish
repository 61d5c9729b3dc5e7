# fish completion for slidegate(1), generated from slidegate's option table by Tests/SlidegateCoreTests/DocumentationTests.swift.
complete -c slidegate -f
complete -c slidegate -l text -x -d 'the label on the track'
complete -c slidegate -l unlock-command -x -a '(__fish_complete_command)' -d 'a command that must succeed to unlock'
complete -c slidegate -l timeout -x -d 'give up after this many seconds (exit 4)'
complete -c slidegate -l geometry -x -d 'windowed mode: the window geometry'
complete -c slidegate -l slider -x -d 'lock mode: the slider rectangle on the primary monitor'
complete -c slidegate -l background -x -d 'background colour'
complete -c slidegate -l foreground -x -d 'label and arrow colour'
complete -c slidegate -l fps -x -d 'animation frame-rate cap'
complete -c slidegate -l fork -d 'lock mode: fork once locked; the parent exits 0'
complete -c slidegate -l help -d 'print the help and exit'
complete -c slidegate -l version -d 'print the version and exit'
