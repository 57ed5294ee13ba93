/* split-floor: the floor of the benchmark (contrib/bench, built only for
 * `make bench`). It reads a file in large blocks and finds every line end,
 * which is the least work any line classifier has to do; it prints the
 * number of lines.
 *
 * Invariant: each byte is looked at once (memchr), no copying, no output
 * per line.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf(stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0)
    {
      perror(argv[1]);
      return 2;
    }
  static char buf[1 << 20];
  unsigned long lines = 0;
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0)
    {
      const char *p = buf, *end = buf + n;
      while ((p = memchr(p, '\n', end - p)) != NULL)
        {
          lines++;
          p++;
        }
    }
  close(fd);
  if (n < 0)
    {
      perror(argv[1]);
      return 1;
    }
  printf("%lu\n", lines);
  return 0;
}
