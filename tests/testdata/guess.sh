#!/bin/sh
# The seed's number-guessing program: asks until it hears 7.
while :; do
  printf 'Guess a number: '
  read answer
  if [ "$answer" = 7 ]; then echo 'Correct!'; exit 0; fi
  echo 'Wrong, try again.'
done
